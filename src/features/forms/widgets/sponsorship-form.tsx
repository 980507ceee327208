import { useT } from '../../../i18n/react.tsx';
import { fileRules, sponsorshipSchema, sponsorshipSubjects } from '../schemas.ts';
import { PersonFields } from './contact-fields.tsx';
import {
  DateField,
  FileField,
  FormShell,
  RadioGroup,
  TextArea,
  TextField,
  useFilesForm,
} from './kit.tsx';

/** Sponsorship application (§2.4). */
export function SponsorshipForm(props: { successPage?: string }) {
  const t = useT();
  const { sender } = useFilesForm(
    'sponsorship',
    sponsorshipSchema,
    {
      Subject: '',
      Groupname: '',
      EventDate: '',
      Message: '',
      Firstname: '',
      Lastname: '',
      Email: '',
      Phone: '',
    },
    { successPage: props.successPage },
  );
  return (
    <FormShell sender={sender} title={t('form.sponsorship.title')}>
      <RadioGroup
        name="Data.Subject"
        legend={t('form.field.subject')}
        options={sponsorshipSubjects.map((value) => ({
          value,
          label: t(`form.sponsorship.subject.${value}`),
        }))}
      />
      <TextField name="Data.Groupname" label={t('form.field.groupName')} />
      <DateField name="Data.EventDate" label={t('form.field.eventDate')} required={false} />
      <TextArea name="Data.Message" label={t('form.field.purpose')} />
      <FileField
        name="Files"
        label={t('form.field.attachment')}
        rule={fileRules.sponsorship}
        typesLabel="PDF"
      />
      <PersonFields prefix="Data" firstName="Firstname" lastName="Lastname" />
    </FormShell>
  );
}
