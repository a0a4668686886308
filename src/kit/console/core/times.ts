/**
 * How the console writes a time where no script turns it into the viewer's zone (tooltips, notices): UTC to the second.
 */
export const utcText = (at: string | number): string =>
  new Date(at)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
