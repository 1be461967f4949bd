/**
 * The one time-of-day format of messages: 24-hour `14:05` in local time, whatever the locale. Intl's own forms
 * follow LANG (`2:05 PM` under C.UTF-8 and en-US), which reads wrong in logs and CI output.
 */
export function clockTime(ms: number): string {
  const date = new Date(ms)
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`
}
