import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { type FieldValues, useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../../i18n/catalogues.ts';
import { IslandRoot } from '../../../render/island-root.tsx';
import type { Lang } from '../../../sites/types.ts';
import { complaintSchema, sponsorshipSchema } from '../schemas.ts';
import { DateField, dateLocale, fromIsoDate, partialDateValue, toIsoDate } from './date-field.tsx';
import { calendarDateOf, DatePickerField } from './date-picker.tsx';
import { FormFrame } from './kit.tsx';

function InForm(props: { value: string; children: ReactNode; error?: boolean }) {
  const methods = useForm<FieldValues>({
    defaultValues: { Data: { EventDate: props.value } },
    ...(props.error
      ? { errors: { Data: { EventDate: { type: 'server', message: 'form.date.invalid' } } } }
      : {}),
  });
  return (
    <FormFrame methods={methods} onSubmit={() => {}}>
      {props.children}
    </FormFrame>
  );
}

function render(node: ReactNode, lang: Lang = 'fi', value = '', error = false): string {
  return renderToString(
    <IslandRoot lang={lang} t={serverT(lang)}>
      <InForm value={value} error={error}>
        {node}
      </InForm>
    </IslandRoot>,
  );
}

/** The visible text of the segments and separators, in order. */
function segmentsText(html: string): string {
  const group = /<div[^>]*role="group"[^>]*>(.*?)<button/s.exec(html)?.[1] ?? '';
  return group
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;|\u200e|\u2066|\u2069/g, '')
    .trim();
}

describe('date values', () => {
  it('reads dd/MM/yyyy into the ISO date of the payload and back', () => {
    expect(toIsoDate('31/05/2026')).toBe('2026-05-31');
    expect(toIsoDate(' 1.5.2026 ')).toBe('2026-05-01');
    expect(toIsoDate('31/05')).toBe('31/05');
    expect(fromIsoDate('2026-05-31')).toBe('31/05/2026');
    expect(calendarDateOf('2026-05-31')?.toString()).toBe('2026-05-31');
    expect(calendarDateOf('2026-02-31')).toBeNull();
    // While the year is typed the picker passes on years like 0002 and 0020: they round-trip.
    expect(calendarDateOf('0002-05-31')?.toString()).toBe('0002-05-31');
    expect(calendarDateOf('0020-02-29')?.toString()).toBe('0020-02-29');
    expect(calendarDateOf('0021-02-29')).toBeNull();
    expect(calendarDateOf('31/05')).toBeNull();
    expect(calendarDateOf(undefined)).toBeNull();
  });

  it('keeps a partly filled date as text the schema refuses, and an empty one as empty', () => {
    const seg = (text: string, isPlaceholder = false) => ({ text, isPlaceholder });
    expect(partialDateValue([seg('15'), seg('08'), seg('2026')])).toBeNull();
    expect(partialDateValue([seg('pp', true), seg('kk', true), seg('vvvv', true)])).toBe('');
    const partial = partialDateValue([seg('15'), seg('08'), seg('vvvv', true)]);
    expect(partial).toBe('15/08/vvvv');
    const parsed = sponsorshipSchema.shape.Data.shape.EventDate.safeParse(partial);
    expect(parsed.error?.issues[0]?.message).toBe('form.date.invalid');
    const required = complaintSchema.shape.Data.safeParse({ ExpirationDate: '' });
    expect(required.error?.issues.find((i) => i.path[0] === 'ExpirationDate')?.message).toBe(
      'validation.required',
    );
  });

  it('uses Finnish conventions in the page language', () => {
    expect(dateLocale('fi')).toBe('fi-FI');
    expect(dateLocale('sv')).toBe('sv-FI');
  });
});

describe('DateField', () => {
  it('is a labelled text input in dd/MM/yyyy before the island hydrates', () => {
    const html = render(
      <DateField name="Data.EventDate" label="Tapahtuman päivämäärä" />,
      'fi',
      '2026-08-15',
    );
    const input = /<input[^>]*>/.exec(html)?.[0] ?? '';
    const id = /id="([^"]+)"/.exec(input)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`for="${id}"`);
    expect(html).toContain('Tapahtuman päivämäärä');
    expect(input).toContain('type="text"');
    expect(input).toContain('value="15/08/2026"');
    expect(input).toContain('placeholder="pp/kk/vvvv"');
    expect(input).toContain('aria-required="true"');
    expect(html).toContain('muodossa pp/kk/vvvv');
  });

  it('the picker shows pp/kk/vvvv with Finnish segment names and a labelled calendar button', () => {
    const html = render(
      <DatePickerField name="Data.EventDate" label="Tapahtuman päivämäärä" focusOnMount={false} />,
    );
    expect(segmentsText(html)).toBe('pp/kk/vvvv');
    const spinbuttons = html.match(/<span[^>]*role="spinbutton"[^>]*>/g) ?? [];
    expect(
      spinbuttons.map((s) => /aria-label="([^"]+)"/.exec(s)?.[1]?.replace(/,\s*$/, '')),
    ).toEqual(['päivä', 'kuukausi', 'vuosi']);
    // Every segment is named by the field's label.
    const labelId = /<span[^>]*id="([^"]+)"[^>]*>Tapahtuman päivämäärä/.exec(html)?.[1];
    expect(labelId).toBeTruthy();
    for (const s of spinbuttons) expect(s).toContain(labelId);
    expect(spinbuttons.every((s) => s.includes('aria-required="true"'))).toBe(true);
    expect(html).toMatch(/<button[^>]*aria-label="Kalenteri"/);
  });

  it('the picker shows a value as dd/MM/yyyy, also on Swedish pages', () => {
    expect(
      segmentsText(
        render(
          <DatePickerField name="Data.EventDate" label="x" focusOnMount={false} />,
          'fi',
          '2026-05-03',
        ),
      ),
    ).toBe('03/05/2026');
    expect(
      segmentsText(
        render(<DatePickerField name="Data.EventDate" label="x" focusOnMount={false} />, 'sv'),
      ),
    ).toBe('dd/mm/åååå');
  });

  it('ties its error to the segments', () => {
    const html = render(
      <DatePickerField name="Data.EventDate" label="x" focusOnMount={false} />,
      'fi',
      '',
      true,
    );
    const error = /<span[^>]*id="([^"]+)"[^>]*>Anna päivämäärä muodossa pp\/kk\/vvvv/.exec(html);
    expect(error?.[1]).toBeTruthy();
    const spinbuttons = html.match(/<span[^>]*role="spinbutton"[^>]*>/g) ?? [];
    expect(spinbuttons.length).toBe(3);
    for (const s of spinbuttons) {
      expect(s).toMatch(new RegExp(`aria-describedby="[^"]*${error?.[1]}`));
      expect(s).toContain('aria-invalid="true"');
    }
  });
});
