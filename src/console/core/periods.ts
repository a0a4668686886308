/** The `count` UTC months (YYYY-MM) up to the one holding `now`, oldest first. */
export function recentMonths(now: number, count: number): string[] {
  const date = new Date(now);
  const months: string[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const month = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - back, 1));
    months.push(month.toISOString().slice(0, 7));
  }
  return months;
}
