import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../../i18n/catalogues.ts';
import { IslandRoot } from '../../../render/island-root.tsx';
import type { Lang } from '../../../sites/types.ts';
import { BrandContactForm } from './brand-contact-form.tsx';
import { ExpertQuestionForm } from './expert-question-form.tsx';
import { ExportContactForm } from './export-contact-form.tsx';
import { PromotionalPhotoForm } from './promotional-photo-form.tsx';
import { QuestionForm } from './question-form.tsx';
import { ComplaintForm, FeedbackForm } from './retail-forms.tsx';
import { SalesForm } from './sales-form.tsx';
import { SchoolMaterialForm } from './school-material-form.tsx';
import { SponsorshipForm } from './sponsorship-form.tsx';

interface Field {
  label: string;
  name?: string;
  required: boolean;
  autoComplete?: string;
  type?: string;
}

/** The text inputs and text areas of a server-rendered form, with their labels, in page order. */
function fieldsOf(node: ReactNode, lang: Lang = 'fi'): Field[] {
  const html = renderToString(
    <IslandRoot lang={lang} t={serverT(lang)}>
      {node}
    </IslandRoot>,
  );
  const labels = new Map<string, string>();
  for (const m of html.matchAll(/<label for="([^"]+)"[^>]*>(.*?)<\/label>/gs)) {
    const text = (m[2] ?? '').replace(/<span[^>]*aria-hidden="true"[^>]*>.*?<\/span>/gs, '');
    labels.set(m[1] ?? '', text.replace(/<[^>]+>|<!-- -->/g, '').trim());
  }
  const fields: Field[] = [];
  for (const m of html.matchAll(/<(input|textarea)\b([^>]*)>/g)) {
    const attrs = m[2] ?? '';
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1];
    const type = attr('type');
    if (m[1] === 'input' && !['text', 'email', 'tel'].includes(type ?? '')) continue;
    const id = attr('id') ?? '';
    fields.push({
      label: labels.get(id) ?? '?',
      ...(attr('name') ? { name: attr('name') } : {}),
      required: attrs.includes('aria-required="true"'),
      ...(attr('autoComplete') ? { autoComplete: attr('autoComplete') } : {}),
      ...(m[1] === 'input' && type !== 'text' ? { type } : {}),
    });
  }
  return fields;
}

const f = (
  label: string,
  name: string | undefined,
  required: boolean,
  autoComplete?: string,
  type?: string,
): Field => ({
  label,
  ...(name ? { name } : {}),
  required,
  ...(autoComplete ? { autoComplete } : {}),
  ...(type ? { type } : {}),
});

const firstName = (name: string) => f('Etunimi', name, true, 'given-name');
const lastName = (name: string) => f('Sukunimi', name, true, 'family-name');
const email = (name: string, required = true, label = 'Sähköpostiosoite') =>
  f(label, name, required, 'email', 'email');
const phone = (name: string, required = true, label = 'Puhelinnumero') =>
  f(label, name, required, 'tel', 'tel');

describe('the forms as the server renders them', () => {
  it('complaint: product, message, date, purchase, names, address, e-mail and phone', () => {
    expect(fieldsOf(<ComplaintForm />)).toEqual([
      { label: 'Tuote', required: true, autoComplete: 'off' },
      f('Viesti', 'Data.Message', true),
      f('Parasta ennen- tai viimeinen käyttöpäivä', undefined, true, 'off'),
      f('Ostopaikka', 'Data.PlaceOfPurchase', true),
      f('Eränumero', 'Data.BatchNumber', false),
      firstName('Data.Firstname'),
      lastName('Data.Lastname'),
      f('Katuosoite', 'Data.StreetAddress', true, 'street-address'),
      f('Postinumero', 'Data.PostalCode', true, 'postal-code'),
      f('Postitoimipaikka', 'Data.City', true, 'address-level2'),
      email('Data.Email', false),
      phone('Data.Phone', false),
    ]);
  });

  it('feedback: the complaint without date, purchase, batch and images', () => {
    const fields = fieldsOf(<FeedbackForm />).map((field) => field.label);
    expect(fields).not.toContain('Ostopaikka');
    expect(fields).toContain('Postitoimipaikka');
    expect(fields).toHaveLength(9);
  });

  it('sponsorship, photo and brand contact: the same person fields with their own names', () => {
    const person = (first: string, last: string) => [
      firstName(`Data.${first}`),
      lastName(`Data.${last}`),
      email('Data.Email'),
      phone('Data.Phone'),
    ];
    expect(fieldsOf(<SponsorshipForm />)).toEqual([
      f('Ryhmän tai seuran nimi', 'Data.Groupname', true),
      f('Tapahtuman päivämäärä', undefined, false, 'off'),
      f('Mihin tukea haetaan?', 'Data.Message', true),
      ...person('Firstname', 'Lastname'),
    ]);
    expect(fieldsOf(<PromotionalPhotoForm />)).toEqual(person('FirstName', 'LastName'));
    expect(fieldsOf(<BrandContactForm />)).toEqual([
      ...person('FirstName', 'LastName'),
      f('Katuosoite', 'Data.StreetAddress', false, 'street-address'),
      f('Postinumero', 'Data.PostalCode', false, 'postal-code'),
      f('Postitoimipaikka', 'Data.City', false, 'address-level2'),
      f('Viesti', 'Data.Message', true),
    ]);
  });

  it('question, expert, export, sales and school material', () => {
    expect(fieldsOf(<QuestionForm />)).toEqual([f('Viesti', 'Data.Message', true)]);
    expect(fieldsOf(<ExpertQuestionForm />)).toEqual([
      f('Nimesi', 'Data.FullName', true, 'name'),
      f('Yritys', 'Data.Company', false, 'organization'),
      email('Data.Email', true, 'Sähköpostiosoitteesi'),
      phone('Data.Phone', false),
      f('Asiakasnumero', 'Data.CustomerId', false),
      f('Viesti', 'Data.Message', true),
    ]);
    expect(fieldsOf(<ExportContactForm />, 'en')).toEqual([
      f('Full name', 'Data.FullName', true, 'name'),
      f('Company', 'Data.Company', true, 'organization'),
      email('Data.Email', true, 'Email'),
      phone('Data.Phone', true, 'Phone'),
      f('Message', 'Data.Message', true),
    ]);
    expect(fieldsOf(<SalesForm />)).toEqual([
      firstName('firstName'),
      lastName('lastName'),
      f('Organisaatio', 'organization', false, 'organization'),
      f('Asiakasnumero', 'customerNumber', false),
      { label: 'Tuote', required: false, autoComplete: 'off' },
      f('Viesti', 'message', true),
      email('email', true),
      phone('phone', false),
    ]);
    expect(fieldsOf(<SchoolMaterialForm />)).toEqual([
      firstName('Data.FirstName'),
      lastName('Data.LastName'),
      f('Koulu', 'Data.School', false),
      f('Paikkakunta', 'Data.Region', false),
      email('Data.Email'),
      f('Viesti', 'Data.Message', false),
    ]);
  });
});

const everyForm: [string, ReactNode, Lang][] = [
  ['complaint', <ComplaintForm key="c" />, 'fi'],
  ['feedback', <FeedbackForm key="f" />, 'fi'],
  ['sponsorship', <SponsorshipForm key="s" />, 'fi'],
  ['question', <QuestionForm key="q" />, 'fi'],
  ['promotional photo', <PromotionalPhotoForm key="p" />, 'fi'],
  ['brand contact', <BrandContactForm key="b" />, 'fi'],
  ['expert question', <ExpertQuestionForm key="e" />, 'fi'],
  ['export contact', <ExportContactForm key="x" />, 'en'],
  ['sales', <SalesForm key="a" />, 'sv'],
  ['school material', <SchoolMaterialForm key="m" />, 'fi'],
];

function htmlOf(node: ReactNode, lang: Lang): string {
  return renderToString(
    <IslandRoot lang={lang} t={serverT(lang)}>
      {node}
    </IslandRoot>,
  );
}

/** A star as `Star` draws it: a span holding ' *'. */
const STAR = /<span[^>]*>\s*(?:<!-- -->)?\*<\/span>/g;

describe('required fields', () => {
  it.each(everyForm)(
    '%s: a note under the heading explains the star; stars are hidden from screen readers, their fields marked required',
    (name, node, lang) => {
      const html = htmlOf(node, lang);
      const note =
        name === 'export contact'
          ? serverT(lang)('form.export.requiredMark')
          : serverT(lang)('form.requiredMark');
      const heading = html.search(/<\/h[23]>/);
      const noteAt = html.indexOf(`>${note}</p>`);
      expect(noteAt, 'the note').toBeGreaterThan(heading);
      // Before every field.
      expect(noteAt).toBeLessThan(html.search(/<(input|textarea)\b/));

      const stars = [...html.matchAll(STAR)];
      expect(stars.length).toBeGreaterThan(0);
      for (const star of stars) expect(star[0]).toContain('aria-hidden="true"');

      // A label with a star names a field that says it is required.
      for (const m of html.matchAll(/<label for="([^"]+)"[^>]*>((?:(?!<\/label>).)*)<\/label>/gs)) {
        if (!(m[2] ?? '').match(STAR)) continue;
        const field = new RegExp(`<(input|textarea)[^>]*\\bid="${m[1]}"[^>]*>`).exec(html)?.[0];
        expect(field, `the field of ${m[2]}`).toMatch(/aria-required="true"|\srequired=""/);
      }
      // A legend with a star: its radio buttons are required.
      for (const m of html.matchAll(/<fieldset\b[^>]*>((?:(?!<\/fieldset>).)*)<\/fieldset>/gs)) {
        const inner = m[1] ?? '';
        const legend = /<legend[^>]*>(.*?)<\/legend>/s.exec(inner)?.[1] ?? '';
        if (!legend.match(STAR)) continue;
        for (const radio of inner.matchAll(/<input[^>]*type="radio"[^>]*>/g)) {
          expect(radio[0]).toContain('required=""');
        }
      }
    },
  );
});

describe('the captcha as the server renders it', () => {
  it.each(everyForm)(
    '%s: a labelled group with an empty status region, and no ALTCHA element yet',
    (_name, node, lang) => {
      const html = htmlOf(node, lang);
      // ALTCHA fills its element as soon as its code is defined, which must not happen to
      // markup React has yet to hydrate (error #418): the element is made after hydration.
      expect(html).not.toContain('<altcha-widget');
      const group =
        /<fieldset[^>]*aria-describedby="([^"]+)"[^>]*><legend[^>]*>([^<]*)<\/legend>/.exec(html);
      expect(group?.[2]).toBe(serverT(lang)('form.captcha.label'));
      expect(html).toMatch(new RegExp(`<p id="${group?.[1]}" role="status"[^>]*></p>`));
    },
  );
});
