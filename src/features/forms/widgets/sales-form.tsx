import { useWatch } from 'react-hook-form';
import { useT } from '../../../i18n/react.tsx';
import { salesContactRequests, salesFormTypes, salesSchema } from '../schemas.ts';
import { EmailField, NameFields, PhoneField } from './contact-fields.tsx';
import {
  CustomerNumberField,
  FormShell,
  ProductField,
  RadioGroup,
  TextArea,
  TextField,
  useFormSender,
  useSchemaForm,
} from './kit.tsx';

/** The food-service sales form (§2.10); status 200 means success. */
export function SalesForm(props: { successPage?: string }) {
  const t = useT();
  const methods = useSchemaForm(salesSchema, {
    firstName: '',
    lastName: '',
    email: '',
    phone: '',
    organization: '',
    product: { productId: 0, title: '' },
    message: '',
    customerNumber: '',
    formType: 'Feedback',
    contactRequest: 'Email',
    captchaToken: '',
  });
  const sender = useFormSender('sales', methods, { successPage: props.successPage });
  const contact = useWatch({ control: methods.control, name: 'contactRequest' }) as string;
  return (
    <FormShell sender={sender} title={t('form.sales.title')}>
      <RadioGroup
        name="formType"
        legend={t('form.field.formType')}
        options={salesFormTypes.map((value) => ({
          value,
          label: t(`form.sales.formType.${value}`),
        }))}
      />
      <NameFields first="firstName" last="lastName" />
      <TextField
        name="organization"
        label={t('form.field.organization')}
        required={false}
        autoComplete="organization"
      />
      <CustomerNumberField name="customerNumber" />
      <ProductField
        label={t('form.field.product')}
        required={false}
        idName="product.productId"
        titleName="product.title"
      />
      <TextArea name="message" label={t('form.field.message')} />
      <RadioGroup
        name="contactRequest"
        legend={t('form.field.contactRequest')}
        options={salesContactRequests.map((value) => ({
          value,
          label: t(`form.sales.contactRequest.${value}`),
        }))}
      />
      <EmailField name="email" required={contact === 'Email'} />
      <PhoneField name="phone" required={contact === 'Phone'} />
    </FormShell>
  );
}
