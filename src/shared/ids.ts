/** Parses a path id; anything that is not a string of digits is an unknown id (404). */
export function parseId(value: string | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}
