// Secret scrubbing: which variable names a run never sees, and what the redactor blanks in text that leaves the engine.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSecretName, Redactor, scrubEnvironment } from '../../src/core/security/secrets';

// Fake keys are built at run time so no key-shaped literal sits in the repository for secret scanners to flag.
const fake = {
  openai: `sk-proj-${'Ab3_x'.repeat(8)}`,
  anthropic: `sk-ant-${'q9Z-'.repeat(8)}`,
  githubClassic: `ghp_${'a1B2'.repeat(9)}`,
  githubFineGrained: `github_pat_${'11AAbb_cc'.repeat(9)}`,
  aws: `AKIA${'IOSFODNN7EXAMPLE'}`,
  slack: `xoxb-${'123456789012'}-${'AbCdEf'.repeat(3)}`,
  npm: `npm_${'aB3dE'.repeat(7)}z`,
  google: `AIza${'Sy0_-'.repeat(6)}abcde`,
  huggingFace: `hf_${'kLmN'.repeat(9)}`,
  gitlab: `glpat-${'x_Y-z'.repeat(5)}`,
};

describe('isSecretName', () => {
  const dropped = [
    'VERIFIED_FIX_API_KEY',
    'verified_fix_api_key',
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'APIKEY',
    'GITHUB_TOKEN',
    'GH_TOKEN',
    'NPM_TOKEN',
    'NODE_AUTH_TOKEN',
    'HF_TOKEN',
    'CI_JOB_TOKEN',
    'ACTIONS_ID_TOKEN_REQUEST_URL',
    'CI_JOB_JWT',
    'CI_JOB_JWT_V2',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_ACCESS_KEY_ID',
    'AWS_SESSION_TOKEN',
    'AWS_PROFILE',
    'AZURE_CLIENT_SECRET',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'SSH_AUTH_SOCK',
    'SSH_AGENT_PID',
    'GPG_AGENT_INFO',
    'DBUS_SESSION_BUS_ADDRESS',
    'DB_PASSWORD',
    'PGPASSWORD',
    'MYSQL_PWD',
    'TWINE_PASSWORD',
    'GPG_PASSPHRASE',
    'MY_SECRET',
    'CLIENT_SECRET_FILE',
    'SIGNING_KEY',
    'PRIVATE_KEY',
    'DOCKER_HOST',
    'DOCKER_CONFIG',
    'KUBECONFIG',
    'VAULT_ADDR',
    'DATABASE_URL',
    'REDIS_URL',
    'MONGODB_URI',
    'SENTRY_DSN',
    'SLACK_WEBHOOK_URL',
    'DISCORD_WEBHOOK',
    'npm_config__authToken',
    'npm_config__auth',
    'npm_config_//registry.npmjs.org/:_authToken',
  ];
  for (const name of dropped) it(`drops ${name}`, () => assert.equal(isSecretName(name), true));

  const kept = [
    'PATH',
    'HOME',
    'PWD',
    'OLDPWD',
    'USER',
    'SHELL',
    'LANG',
    'LC_ALL',
    'TERM',
    'TZ',
    'TMPDIR',
    'XDG_RUNTIME_DIR',
    'NODE_OPTIONS',
    'NODE_ENV',
    'npm_config_cache',
    'npm_config_registry',
    'GITHUB_ACTIONS',
    'GITHUB_WORKSPACE',
    'CI',
    'PYTHONPATH',
    'VIRTUAL_ENV',
    'JAVA_HOME',
    'GOPATH',
    'CARGO_HOME',
    'TOKENIZERS_PARALLELISM',
    'GIT_AUTHOR_NAME',
    'SSH_ASKPASS',
    'KEYBOARD_LAYOUT',
    'MONKEY_PATCH',
    'CACHE_KEY_PREFIX',
  ];
  for (const name of kept) it(`keeps ${name}`, () => assert.equal(isSecretName(name), false));
});

describe('scrubEnvironment', () => {
  const base = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/dev',
    LANG: 'C.UTF-8',
    TOKENIZERS_PARALLELISM: 'false',
    VERIFIED_FIX_API_KEY: 'vf-product-key-123',
    OPENAI_API_KEY: fake.openai,
    GITHUB_TOKEN: fake.githubClassic,
    DB_PASSWORD: 'hunter2hunter2',
    AWS_PROFILE: 'staging',
    UNSET: undefined,
  };

  it('keeps ordinary variables and drops secret ones, names sorted, values only in droppedValues', () => {
    const scrubbed = scrubEnvironment(base);
    assert.deepEqual(scrubbed.env, { PATH: '/usr/bin:/bin', HOME: '/home/dev', LANG: 'C.UTF-8' });
    assert.deepEqual(scrubbed.notAllowed, ['TOKENIZERS_PARALLELISM'], 'not on the allow-list: left out, but not called a secret');
    assert.deepEqual(scrubbed.dropped, ['AWS_PROFILE', 'DB_PASSWORD', 'GITHUB_TOKEN', 'OPENAI_API_KEY', 'VERIFIED_FIX_API_KEY']);
    // AWS_PROFILE is dropped but only names a profile: its value ('staging') is no secret and is not redacted.
    assert.deepEqual([...scrubbed.droppedValues].sort(), ['hunter2hunter2', fake.githubClassic, fake.openai, 'vf-product-key-123'].sort());
    for (const name of scrubbed.dropped) assert.ok(!Object.values(base).includes(name), `a value leaked into dropped: ${name}`);
    assert.ok(!('UNSET' in scrubbed.env) && !scrubbed.dropped.includes('UNSET'));
  });

  it('passEnv keeps a named secret (trimmed, exact name) but never the product key', () => {
    const scrubbed = scrubEnvironment(base, [' DB_PASSWORD ', 'VERIFIED_FIX_API_KEY', 'github_token', '']);
    assert.equal(scrubbed.env.DB_PASSWORD, 'hunter2hunter2');
    assert.equal(scrubbed.env.VERIFIED_FIX_API_KEY, undefined);
    assert.equal(scrubbed.env.GITHUB_TOKEN, undefined, 'passEnv names match case-sensitively');
    assert.deepEqual(scrubbed.dropped, ['AWS_PROFILE', 'GITHUB_TOKEN', 'OPENAI_API_KEY', 'VERIFIED_FIX_API_KEY']);
    assert.ok(!scrubbed.droppedValues.includes('hunter2hunter2'), 'a passed value is not redacted');
  });

  it('drops the product key under any spelling of its case, even when passEnv names it', () => {
    const scrubbed = scrubEnvironment({ verified_fix_api_key: 'lower-case-key' }, ['verified_fix_api_key']);
    assert.deepEqual(scrubbed.env, {});
    assert.deepEqual(scrubbed.dropped, ['verified_fix_api_key']);
  });

  it('keeps only allow-listed names, and of those only values that carry no credential', () => {
    const scrubbed = scrubEnvironment({
      NODE_OPTIONS: '--max-old-space-size=4096', npm_config_cache: '/c', 'npm_config_//registry.example/:_authToken': 'abc', npm_config__auth: 'dXNlcjpwYXNz',
      PYTHONPATH: 'src', LC_ALL: 'C', RAILS_MASTER_KEY: 'a1b2c3d4e5f6a7b8c9d0', HTTPS_PROXY: 'http://u:hunter2@proxy:3128',
      PIP_INDEX_URL: 'https://ci:tok123456@pypi.internal/simple', NODE_EXTRA_CA_CERTS: 'AccountKey=abcdef', XDG_CONFIG_HOME: 'https://u:p4ssw0rd@x',
    }, ['PIP_INDEX_URL']);
    assert.deepEqual(Object.keys(scrubbed.env).sort(), ['LC_ALL', 'NODE_OPTIONS', 'PIP_INDEX_URL', 'PYTHONPATH', 'npm_config_cache']);
    // npm's credentials go by their names (`_auth`, `_authToken`), the rest by their values.
    assert.deepEqual(scrubbed.dropped, ['HTTPS_PROXY', 'NODE_EXTRA_CA_CERTS', 'XDG_CONFIG_HOME', 'npm_config_//registry.example/:_authToken', 'npm_config__auth']);
    assert.ok(scrubbed.notAllowed.includes('RAILS_MASTER_KEY'));
    assert.ok(scrubbed.droppedValues.includes('a1b2c3d4e5f6a7b8c9d0'), 'a key-like value under an unusual name is redacted too');
    assert.ok(scrubbed.droppedValues.includes('http://u:hunter2@proxy:3128'));
  });

  it('leaves the base environment unchanged', () => {
    const copy = { ...base };
    scrubEnvironment(base, ['DB_PASSWORD']);
    assert.deepEqual(base, copy);
  });
});

describe('Redactor: values', () => {
  it('replaces every occurrence of a value', () => {
    const r = new Redactor(['hunter2hunter2']);
    assert.equal(r.redact('pw=hunter2hunter2; again hunter2hunter2'), 'pw=[redacted]; again [redacted]');
  });

  it('ignores values shorter than 6 characters (they would blank ordinary output)', () => {
    const r = new Redactor(['1', 'true', 'en', 'abcde']);
    assert.equal(r.redact('1 true en abcde'), '1 true en abcde');
    assert.equal(new Redactor(['abcdef']).redact('xabcdefx'), 'x[redacted]x');
  });

  it('trims values before matching', () => {
    assert.equal(new Redactor(['  s3cr3t-value\n']).redact('got s3cr3t-value'), 'got [redacted]');
  });

  it('replaces the longest value first, so a value containing another goes whole', () => {
    for (const values of [['abcdef', 'abcdefghijkl'], ['abcdefghijkl', 'abcdef']]) {
      assert.equal(new Redactor(values).redact('[abcdefghijkl] [abcdef]'), '[[redacted]] [[redacted]]', values.join(','));
    }
  });

  it('with no values still redacts key formats', () => {
    assert.equal(new Redactor().redact(`key ${fake.openai}`), 'key [redacted]');
  });
});

describe('Redactor: key formats', () => {
  const r = new Redactor();
  const pem = ['-----BEGIN OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ', 'AAAAC3NzaC1lZDI1NTE5AAAAIB', '-----END OPENSSH PRIVATE KEY-----'].join('\n');
  const table: Array<[name: string, input: string, expected: string]> = [
    ['a private key block', `before\n${pem}\nafter`, 'before\n[redacted]\nafter'],
    ['an unterminated private key block', `x -----BEGIN RSA PRIVATE KEY-----\nMIIEow`, 'x [redacted]'],
    ['an OpenAI key', `OPENAI=${fake.openai}.`, 'OPENAI=[redacted].'],
    ['an Anthropic key', `key: ${fake.anthropic}`, 'key: [redacted]'],
    ['a classic GitHub token', `token ${fake.githubClassic} end`, 'token [redacted] end'],
    ['a fine-grained GitHub token', `(${fake.githubFineGrained})`, '([redacted])'],
    ['a GitLab token', fake.gitlab, '[redacted]'],
    ['an AWS access key id', `id=${fake.aws}`, 'id=[redacted]'],
    ['a Slack bot token', `"${fake.slack}"`, '"[redacted]"'],
    ['an npm token', `//registry.npmjs.org/:_authToken=${fake.npm}`, '//registry.npmjs.org/:_authToken=[redacted]'],
    ['a Google API key', `key=${fake.google}&q=1`, 'key=[redacted]&q=1'],
    ['a Hugging Face token', fake.huggingFace, '[redacted]'],
    ['an authorization header', 'authorization: Bearer abc.def.ghi-123', 'authorization: Bearer [redacted]'],
    ['an Authorization field in JSON', '{"Authorization": "Basic dXNlcjpwYXNz"}', '{"Authorization": "Basic [redacted]"}'],
    ['a token scheme', 'Authorization=token 0123456789abcdef', 'Authorization=token [redacted]'],
  ];
  for (const [name, input, expected] of table) it(`redacts ${name}`, () => assert.equal(r.redact(input), expected));

  const ordinary = [
    'test result: ok. 3 passed; 0 failed; 0 ignored; finished in 0.01s',
    'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
    'id 123e4567-e89b-12d3-a456-426614174000',
    'base64 aGVsbG8gd29ybGQ= and AAEC/w==',
    'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 3 !== 4',
    'the disk-space-checker-module-for-tests ran; a risk-assessment-of-everything-here passed',
    'npm_config_cache=/home/dev/.npm and npm_lifecycle_event=test',
    'authorization: none required',
    'ok 1 - task AKIA (short) and ghp_ (short) and sk-short',
  ];
  for (const text of ordinary) it(`leaves ordinary output alone: ${text.slice(0, 40)}…`, () => assert.equal(r.redact(text), text));
});
