import { Binary } from "mongodb";

/**
 * A row of monthly amounts as stored by the forecast's rollups and versions: little-endian float64s in one binary
 * value, NaN for a month without an amount. A document of a cost centre's accounts then decodes as a few byte
 * copies instead of hundreds of array elements (an array of numbers costs the server and the driver work per element
 * to encode and decode; the packed row is one copy).
 */

export function packAmounts(amounts: readonly (number | null)[]): Binary {
  const bytes = Buffer.allocUnsafe(amounts.length * 8);
  amounts.forEach((amount, i) => {
    bytes.writeDoubleLE(amount ?? Number.NaN, i * 8);
  });
  return new Binary(bytes);
}

export function unpackAmounts(packed: Binary): (number | null)[] {
  const bytes = packed.buffer;
  const view = new DataView(bytes.buffer, bytes.byteOffset, packed.length());
  const amounts = new Array<number | null>(Math.floor(view.byteLength / 8));
  for (let i = 0; i < amounts.length; i++) {
    const amount = view.getFloat64(i * 8, true);
    amounts[i] = Number.isNaN(amount) ? null : amount;
  }
  return amounts;
}
