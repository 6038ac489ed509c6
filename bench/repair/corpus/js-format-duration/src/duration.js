// Formats seconds as H:MM:SS (hours unbounded) for a media player; fractions of a second are dropped.
function formatDuration(totalSeconds) {
  const sign = totalSeconds < 0 ? '-' : '';
  const t = Math.floor(Math.abs(totalSeconds));
  const hours = Math.floor(t / 60);
  const minutes = Math.floor(t / 60) % 60;
  const seconds = t % 60;
  const two = (n) => String(n).padStart(2, '0');
  return `${sign}${hours}:${two(minutes)}:${two(seconds)}`;
}

module.exports = { formatDuration };
