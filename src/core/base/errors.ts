// Errors the user can act on: their message is shown as it is, without a stack trace.

/** Bad input (a file, a flag, a setting): the message says what is wrong and where. */
export class UserError extends Error {
  override readonly name = 'UserError';
}
