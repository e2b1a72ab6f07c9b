/**
 * A duration given in minutes, in short French units: "45 min", "2 h 5 min", "3 j 4 h". A zero
 * second part is left out ("2 h", "1 j"); under one minute reads "< 1 min".
 */
export function formatMinutes(minutes: number): string {
  const total = Math.round(Math.max(0, minutes));
  if (minutes > 0 && total === 0) return "< 1 min";
  if (total < 60) return `${total} min`;
  const hoursTotal = Math.floor(total / 60);
  if (hoursTotal < 24) {
    const rest = total % 60;
    return rest ? `${hoursTotal} h ${rest} min` : `${hoursTotal} h`;
  }
  const days = Math.floor(hoursTotal / 24);
  const hours = Math.round((total - days * 24 * 60) / 60);
  if (hours === 24) return `${days + 1} j`;
  return hours ? `${days} j ${hours} h` : `${days} j`;
}
