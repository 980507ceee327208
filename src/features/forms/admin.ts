/**
 * The forms feature's back-office surface (decision 145): the month calendar its date picker
 * shows, for the /admin app's date field. Nothing here loads a public form.
 */

export { type FormId, formIds } from './forms.ts';
/** The forms' settings per site (decision 170): the API's address, shapes and limits. */
export {
  FORM_SETTINGS_API,
  type FormSettingsRow,
  type FormSettingsSite,
  type FormSettingsSites,
  type FormSettingsUpdate,
  RECIPIENTS_MAX,
} from './settings-schemas.ts';
export { MonthCalendar, type MonthCalendarClasses } from './widgets/month-calendar.tsx';
