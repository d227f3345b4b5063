/**
 * One JSON line per step of an announcement in the mailer: what happened, counts, and the fault's class and
 * name. Never an address.
 */
export function logAnnouncement(
  level: 'INFO' | 'WARN' | 'ERROR',
  message: string,
  fields: Record<string, string | number | undefined>,
): void {
  const line = JSON.stringify({ level, message, ...fields });
  if (level === 'ERROR') console.error(line);
  else if (level === 'WARN') console.warn(line);
  else console.info(line);
}
