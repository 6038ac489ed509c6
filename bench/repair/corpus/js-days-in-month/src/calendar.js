// Days in a month of the Gregorian calendar (month 1-12).
function daysInMonth(year, month) {
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`bad month: ${month}`);
  }
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) && year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

module.exports = { daysInMonth };
