// Prices with a bulk discount: orders of at least `threshold` items get `percent` off.

function applyDiscount(price, quantity, threshold, percent) {
  const subtotal = price * quantity;
  if (quantity > threshold) {
    return subtotal - (subtotal * percent) / 100;
  }
  return subtotal;
}

function cheapest(prices) {
  let best = prices[0];
  for (let i = 1; i < prices.length; i++) {
    if (prices[i] < best) best = prices[i];
  }
  return best;
}

module.exports = { applyDiscount, cheapest };
