/**
 * The form-settings feature's back-office surface (decision 145): the API's address, shapes and
 * limits, for the /admin app's Lomakkeet screen (decision 170).
 */
export {
  FORM_SETTINGS_API,
  type FormSettingsRow,
  type FormSettingsSite,
  type FormSettingsSites,
  type FormSettingsUpdate,
  RECIPIENTS_MAX,
} from './schemas.ts';
