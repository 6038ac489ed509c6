// Reads a TCP port from a config value: a number or a numeric string; empty or absent means the fallback.
function parsePort(value, fallback = 8080) {
  const text = String(value ?? '').trim();
  if (!/^\d+$/.test(text)) {
    throw new Error(`invalid port: ${JSON.stringify(value)}`);
  }
  const port = Number(text);
  if (port < 1 || port > 65535) {
    throw new RangeError(`port out of range: ${port}`);
  }
  return port;
}

module.exports = { parsePort };
