import { useId } from 'react';
import { useWatch } from 'react-hook-form';
import { useT } from '../../../i18n/react.tsx';
import { salesContactRequests, salesFormTypes, salesSchema } from '../schemas.ts';
import {
  ErrorSummary,
  FormFrame,
  ProductField,
  RadioGroup,
  SubmitRow,
  SuccessText,
  styles,
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
  const headingId = `${useId().replace(/[^\w-]/g, '')}-heading`;
  if (sender.status === 'success') return <SuccessText text={t('form.success')} />;
  return (
    <FormFrame
      methods={methods}
      labelledBy={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        if (!sender.hasToken()) return;
        void methods.handleSubmit(sender.send)(event);
      }}
    >
      <h2 id={headingId} className={styles.heading}>
        {t('form.sales.title')}
      </h2>
      <RadioGroup
        name="formType"
        legend={t('form.field.formType')}
        options={salesFormTypes.map((value) => ({
          value,
          label: t(`form.sales.formType.${value}`),
        }))}
      />
      <TextField name="firstName" label={t('form.field.firstName')} autoComplete="given-name" />
      <TextField name="lastName" label={t('form.field.lastName')} autoComplete="family-name" />
      <TextField
        name="organization"
        label={t('form.field.organization')}
        required={false}
        autoComplete="organization"
      />
      <TextField name="customerNumber" label={t('form.field.customerId')} required={false} />
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
      <TextField
        name="email"
        label={t('form.field.email')}
        type="email"
        autoComplete="email"
        required={contact === 'Email'}
      />
      <TextField
        name="phone"
        label={t('form.field.phone')}
        type="tel"
        autoComplete="tel"
        required={contact === 'Phone'}
      />
      <ErrorSummary
        heading={t('form.summary.default')}
        fields={[
          { name: 'firstName', label: t('form.field.firstName') },
          { name: 'lastName', label: t('form.field.lastName') },
          { name: 'message', label: t('form.field.message') },
          { name: 'email', label: t('form.field.email') },
          { name: 'phone', label: t('form.field.phone') },
        ]}
      />
      {sender.captchaElement}
      <SubmitRow status={sender.status} errorText={t(sender.errorKey ?? 'form.error.general')} />
    </FormFrame>
  );
}
