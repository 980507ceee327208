/**
 * The forms feature's back-office surface (decision 145): the month calendar its date picker
 * shows, for the /admin app's date field. Nothing here loads a public form.
 */
export { MonthCalendar, type MonthCalendarClasses } from './widgets/month-calendar.tsx';
