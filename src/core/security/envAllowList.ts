// Which variables a test run may get at all (an allow-list: a secret under an unusual name is left out by default),
// and the value check for those it keeps (a password inside a URL, a connection string's key).

/** Exact names every toolchain and shell expects. */
const ALLOWED_NAMES = new Set([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'PWD', 'SHLVL', 'HOSTNAME', 'LANG', 'LANGUAGE', 'TERM', 'COLORTERM', 'TZ', 'TMPDIR',
  'CI', 'FORCE_COLOR', 'NO_COLOR', 'DEBIAN_FRONTEND', 'EDITOR', 'PAGER',
  'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'XDG_DATA_DIRS', 'XDG_CONFIG_DIRS',
  'LD_LIBRARY_PATH', 'PKG_CONFIG_PATH', 'CC', 'CXX', 'CFLAGS', 'CXXFLAGS', 'CPPFLAGS', 'LDFLAGS', 'MAKEFLAGS',
  'SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'GIT_SSL_CAINFO', 'NIX_SSL_CERT_FILE', 'OLDPWD',
  'VIRTUAL_ENV', 'JAVA_HOME', 'JAVA_TOOL_OPTIONS', 'MAVEN_OPTS', 'GRADLE_USER_HOME', 'GRADLE_OPTS',
  'GOPATH', 'GOROOT', 'GOCACHE', 'GOMODCACHE', 'GOFLAGS', 'GOOS', 'GOARCH', 'GOTOOLCHAIN', 'GO111MODULE', 'CGO_ENABLED',
  'CARGO_HOME', 'RUSTUP_HOME', 'RUSTUP_TOOLCHAIN', 'RUST_BACKTRACE', 'RUSTFLAGS', 'CARGO_TARGET_DIR',
  'DENO_DIR', 'BUN_INSTALL', 'VOLTA_HOME', 'PNPM_HOME', 'COREPACK_HOME', 'PLAYWRIGHT_BROWSERS_PATH', 'CHROME_BIN',
  'GITHUB_ACTIONS', 'RUNNER_OS', 'RUNNER_ARCH',
]);

/** Families of toolchain variables, by prefix. */
const ALLOWED_PREFIXES: readonly string[] = ['LC_', 'NODE_', 'npm_config_', 'npm_package_', 'npm_lifecycle_', 'NVM_', 'PYTHON', 'PYTEST_', 'PYENV_', 'CONDA_', 'PIP_', 'PIPX_', 'POETRY_', 'UV_', 'JEST_', 'VITEST', 'MOCHA_'];

/** npm settings that hold registry credentials (`_auth`, `_authToken`, `//host/:_password`). */
const NPM_AUTH = /^npm_config_(.*(_auth|authtoken|_password|username|certfile|keyfile|email)|\/\/)/i;

/** Whether a variable is one a test run may get (secret-looking names are still dropped by the name check). */
export function isAllowedName(name: string): boolean {
  if (ALLOWED_NAMES.has(name)) return true;
  if (name.startsWith('npm_config_')) return !NPM_AUTH.test(name);
  return ALLOWED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** Values that carry a credential whatever the variable is called. */
const SECRET_VALUES: readonly RegExp[] = [
  /:\/\/[^\s/:@]*:[^\s/@]+@/, // a URL with a password: https://user:pass@host, postgres://u:p@db
  /AccountKey=|SharedAccessSignature=|sig=[A-Za-z0-9%]{20,}/i, // Azure connection strings and SAS tokens
  /authorization\s*:/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|\bgithub_pat_|\bglpat-|\bsk-[A-Za-z0-9_-]{20,}|\bxox[abprs]-|\bhf_[A-Za-z0-9]{30,}|\b(AKIA|ASIA)[A-Z0-9]{16}\b/,
];

/** Whether a value holds a credential (a password in a URL, a connection string key, a known token format). */
export function isSecretValue(value: string): boolean {
  return SECRET_VALUES.some((pattern) => pattern.test(value));
}

/**
 * Whether a value left out of the run looks like a key of its own (long, one word, letters and digits, not a path):
 * such values are redacted from output too, so a secret under an unusual name (`RAILS_MASTER_KEY`, `GITHUB_PAT`)
 * that reached the engine is not printed by it either.
 */
export function looksLikeKey(value: string): boolean {
  return value.length >= 16 && /^[A-Za-z0-9_\-+/=.~]+$/.test(value) && !value.startsWith('/') && /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}
