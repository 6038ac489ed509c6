// Keeps the user's secrets away from untrusted test runs: the run's environment is built, not inherited, and text that
// leaves the engine (log lines, verdict output, model prompts) is scrubbed of secret values.
import { isAllowedName, isSecretValue, looksLikeKey } from './envAllowList';

/** The product's own key variables: never passed, whatever `passEnv` says. */
const PRODUCT_KEYS = new Set(['VERIFIED_FIX_API_KEY']);

/**
 * Names of variables that usually hold credentials, or reach something that grants them (agent sockets, cloud
 * profiles). Matched against the upper-cased name.
 */
const SECRET_NAME_PATTERNS: readonly RegExp[] = [
  /(^|_)TOKENS?($|_)|AUTHTOKEN|(^|_)JWT($|_)/,
  /SECRET/,
  // `_PWD`, not `PWD`: MYSQL_PWD is a password, PWD and OLDPWD are folders.
  /PASSWORD|PASSWD|PASSPHRASE|_PWD$/,
  /(^|_)(API|ACCESS|PRIVATE|SECRET|SIGNING|ENCRYPTION)_?KEY($|_)/,
  /(^|_)(CREDENTIALS?|AUTH)($|_)/,
  /^AWS_/,
  /^AZURE_/,
  /^GOOGLE_APPLICATION_CREDENTIALS$/,
  /^(SSH_AUTH_SOCK|SSH_AGENT_PID|GPG_AGENT_INFO|DBUS_SESSION_BUS_ADDRESS)$/,
  /^(KUBECONFIG|DOCKER_HOST|CONTAINER_HOST|DOCKER_CONFIG)$/,
  /^VAULT_/,
  /^(DATABASE|REDIS|MONGO(DB)?|AMQP|POSTGRES|PG)_?(URL|URI)$/,
  /_DSN$/,
  // A Slack, Discord or Teams webhook URL lets whoever holds it post.
  /WEBHOOK/,
];

/**
 * Dropped variables whose value only points at a secret (a socket, a profile name, a region, a config path): the
 * value itself is no secret, and redacting `default` or `us-east-1` everywhere would garble ordinary output.
 */
const POINTER_NAME = /(_(REGION|PROFILE|SOCK|HOST|CONFIG|CONFIG_FILE|FILE|PATH|DIR|HOME|PID|INFO|ADDRESS|ENDPOINT|URL_BASE|BUNDLE)|^KUBECONFIG|^GOOGLE_APPLICATION_CREDENTIALS)$/;

/** Whether a variable name looks like it holds a secret (or the way to one). */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return PRODUCT_KEYS.has(upper) || SECRET_NAME_PATTERNS.some((pattern) => pattern.test(upper));
}

export interface ScrubbedEnvironment {
  readonly env: NodeJS.ProcessEnv;
  /** Names dropped as secrets (by name or by value), sorted; for the log (never the values). */
  readonly dropped: readonly string[];
  /** Names left out because they are not on the allow-list (and not in `passEnv`), sorted. */
  readonly notAllowed: readonly string[];
  /** Values of the dropped variables that are secrets themselves (not pointers to one), for the redactor. */
  readonly droppedValues: readonly string[];
}

/**
 * The base environment reduced to the allow-list (security/envAllowList) plus `passEnv`, minus secret-looking names and
 * values: a `passEnv` name is kept whatever it looks like (the user asked for it), except the product's own keys,
 * which no test needs.
 */
export function scrubEnvironment(base: NodeJS.ProcessEnv, passEnv: readonly string[] = []): ScrubbedEnvironment {
  const keep = new Set(passEnv.map((name) => name.trim()).filter(Boolean));
  const env: NodeJS.ProcessEnv = {};
  const dropped: string[] = [];
  const notAllowed: string[] = [];
  const droppedValues: string[] = [];
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    const product = PRODUCT_KEYS.has(name.toUpperCase());
    const passed = keep.has(name) && !product;
    const secretName = product || isSecretName(name);
    if (passed) {
      env[name] = value;
    } else if (secretName || isSecretValue(value)) {
      dropped.push(name);
      if (!POINTER_NAME.test(name.toUpperCase()) || isSecretValue(value)) droppedValues.push(value);
    } else if (isAllowedName(name)) {
      env[name] = value;
    } else {
      notAllowed.push(name);
      if (looksLikeKey(value)) droppedValues.push(value);
    }
  }
  return { env, dropped: dropped.sort(), notAllowed: notAllowed.sort(), droppedValues };
}

/**
 * Formats of well-known keys, redacted wherever they appear. Each is specific enough not to match ordinary test
 * output (hashes, UUIDs, base64 fixtures).
 */
const KEY_FORMATS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\bsk-(proj-|ant-)?[A-Za-z0-9_-]{20,}/g,
  /\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{40,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\b(AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
];

/** An authorization header or field: the scheme is kept so the line still reads. */
const AUTHORIZATION = /(authorization["']?\s*[:=]\s*["']?(?:Bearer|Basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}/gi;

/** Values shorter than this are not redacted by value: `1`, `true` or `en` would blank ordinary output. */
const MIN_SECRET_LENGTH = 6;

/** Replaces secret values and well-known key formats in text with `[redacted]`. */
export class Redactor {
  private readonly values: readonly string[];

  constructor(values: Iterable<string> = []) {
    // Longest first, so a value that contains another is replaced whole.
    this.values = [...new Set([...values].map((v) => v.trim()).filter((v) => v.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let out = text;
    for (const value of this.values) if (out.includes(value)) out = out.split(value).join('[redacted]');
    for (const format of KEY_FORMATS) out = out.replace(format, '[redacted]');
    return out.replace(AUTHORIZATION, '$1[redacted]');
  }
}
