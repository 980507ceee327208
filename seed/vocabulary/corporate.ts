import type { Lang } from '../../src/sites/types.ts';
import type { Person, PlantKey } from './types.ts';

/** People quoted in releases and named as authors. */
export const people: readonly Person[] = [
  { name: 'Anna Virtanen', role: 'cfo' },
  { name: 'Mikko Korhonen', role: 'ceo' },
  { name: 'Sanna Nieminen', role: 'marketing' },
  { name: 'Jari Mäkinen', role: 'production' },
  { name: 'Laura Hämäläinen', role: 'sustainability' },
  { name: 'Timo Laine', role: 'sales' },
  { name: 'Heidi Koskinen', role: 'hr' },
  { name: 'Pekka Heikkinen', role: 'quality' },
  { name: 'Riikka Järvinen', role: 'communications' },
  { name: 'Ville Lehtonen', role: 'export' },
  { name: 'Erik Lindqvist', role: 'ceo' },
  { name: 'Karin Johansson', role: 'cfo' },
  { name: 'Sofia Andersson', role: 'marketing' },
  { name: 'Johan Karlsson', role: 'production' },
  { name: 'Maria Nilsson', role: 'sustainability' },
  { name: 'Anders Persson', role: 'sales' },
  { name: 'Emma Svensson', role: 'communications' },
  { name: 'Lars Gustafsson', role: 'quality' },
];

export const plantsByCountry: Record<'fi' | 'se', readonly PlantKey[]> = {
  fi: ['forssa', 'seinajoki', 'sakyla', 'kuopio', 'vantaa'],
  se: ['halmstad', 'skara', 'kristianstad'],
};

type Texts = Partial<Record<Lang, { title: string; text: string }>>;

/** History timeline of the corporate sites, one entry per year. */
export const timeline: readonly { year: number; texts: Texts }[] = [
  {
    year: 1898,
    texts: {
      fi: {
        title: 'Lihakauppa Forssaan',
        text: 'Teurastajamestari Kustaa Forsman avaa lihakaupan Forssan torin laidalle.',
      },
      sv: {
        title: 'En köttbutik i Forssa',
        text: 'Slaktarmästaren Kustaa Forsman öppnar en köttbutik vid torget i Forssa.',
      },
      en: {
        title: 'A butcher’s shop in Forssa',
        text: 'Master butcher Kustaa Forsman opens a shop on the market square in Forssa.',
      },
    },
  },
  {
    year: 1912,
    texts: {
      fi: {
        title: 'Ensimmäinen makkaratehdas',
        text: 'Kaupan taakse rakennetaan makkaratehdas ja savustamo.',
      },
      sv: {
        title: 'Den första korvfabriken',
        text: 'Bakom butiken byggs en korvfabrik och ett rökeri.',
      },
      en: {
        title: 'The first sausage factory',
        text: 'A sausage factory and smokehouse are built behind the shop.',
      },
    },
  },
  {
    year: 1928,
    texts: {
      fi: {
        title: 'Lenkkimakkara syntyy',
        text: 'Tehdas alkaa valmistaa lenkkimakkaraa, josta tulee nopeasti koko maakunnan suosikki.',
      },
      sv: {
        title: 'Ringkorven föds',
        text: 'Fabriken börjar tillverka ringkorv som snabbt blir hela landskapets favorit.',
      },
      en: {
        title: 'The ring sausage is born',
        text: 'The factory starts making ring sausage, which soon becomes a regional favourite.',
      },
    },
  },
  {
    year: 1932,
    texts: {
      fi: {
        title: 'Sibylla Ruotsissa',
        text: 'Sibyllan ensimmäinen grillikioski avataan Ruotsissa.',
      },
      sv: { title: 'Sibylla i Sverige', text: 'Sibyllas första grillkiosk öppnar i Sverige.' },
      en: { title: 'Sibylla in Sweden', text: 'Sibylla’s first grill kiosk opens in Sweden.' },
    },
  },
  {
    year: 1946,
    texts: {
      fi: {
        title: 'Osuuskunta perustetaan',
        text: 'Hämäläiset karjatilalliset perustavat osuuskunnan, joka ostaa tehtaan.',
      },
      sv: {
        title: 'Andelslaget bildas',
        text: 'Boskapsuppfödare i Tavastland bildar ett andelslag som köper fabriken.',
      },
      en: {
        title: 'The cooperative is founded',
        text: 'Cattle farmers in Häme found a cooperative that buys the factory.',
      },
    },
  },
  {
    year: 1955,
    texts: {
      fi: {
        title: 'Leikkeleet viipaloituina',
        text: 'Ensimmäiset viipaloidut leikkeleet tulevat kauppoihin.',
      },
      sv: { title: 'Skivat pålägg', text: 'De första skivade påläggen kommer ut i butikerna.' },
      en: { title: 'Sliced cold cuts', text: 'The first pre-sliced cold cuts reach the shops.' },
    },
  },
  {
    year: 1962,
    texts: {
      fi: {
        title: 'Lauantaimakkara',
        text: 'Lauantaimakkara lanseerataan ja siitä tulee lasten leipien klassikko.',
      },
      sv: {
        title: 'Lördagskorv',
        text: 'Lördagskorven lanseras och blir en klassiker på barnens smörgåsar.',
      },
      en: {
        title: 'Saturday sausage',
        text: 'Saturday sausage is launched and becomes a classic on children’s sandwiches.',
      },
    },
  },
  {
    year: 1971,
    texts: {
      fi: {
        title: 'Seinäjoen tehdas',
        text: 'Seinäjoelle valmistuu uusi teurastamo ja leikkaamo.',
      },
      sv: {
        title: 'Fabriken i Seinäjoki',
        text: 'Ett nytt slakteri och styckeri står klart i Seinäjoki.',
      },
      en: {
        title: 'The Seinäjoki plant',
        text: 'A new abattoir and cutting plant is completed in Seinäjoki.',
      },
    },
  },
  {
    year: 1978,
    texts: {
      fi: {
        title: 'Valmisruoat',
        text: 'Ensimmäiset valmisruoat: maksalaatikko ja kaalilaatikko.',
      },
      sv: { title: 'Färdigmat', text: 'Den första färdigmaten: leverlåda och kålpudding.' },
      en: {
        title: 'Ready meals',
        text: 'The first ready meals: liver casserole and cabbage casserole.',
      },
    },
  },
  {
    year: 1985,
    texts: {
      fi: {
        title: 'Jyväbroileri',
        text: 'Säkylään perustetaan broileriteurastamo ja Jyväbroileri-brändi syntyy.',
      },
      sv: {
        title: 'Jyväbroileri',
        text: 'Ett kycklingslakteri grundas i Säkylä och varumärket Jyväbroileri föds.',
      },
      en: {
        title: 'Jyväbroileri',
        text: 'A chicken plant is founded in Säkylä and the Jyväbroileri brand is born.',
      },
    },
  },
  {
    year: 1992,
    texts: {
      fi: { title: 'Vienti alkaa', text: 'Ensimmäiset vientierät lähtevät Japaniin ja Viroon.' },
      sv: {
        title: 'Exporten börjar',
        text: 'De första exportleveranserna går till Japan och Estland.',
      },
      en: { title: 'Exports begin', text: 'The first export shipments go to Japan and Estonia.' },
    },
  },
  {
    year: 1998,
    texts: {
      fi: { title: 'Pörssiin', text: 'Kattaus Oyj listautuu Helsingin pörssiin.' },
      sv: { title: 'Börsnotering', text: 'Kattaus Oyj noteras på Helsingforsbörsen.' },
      en: { title: 'Listing', text: 'Kattaus Plc is listed on the Helsinki Stock Exchange.' },
    },
  },
  {
    year: 2004,
    texts: {
      fi: {
        title: 'Ruotsin yritykset',
        text: 'Kattaus ostaa Lithellsin, Lönnebergan ja Ridderheimsin.',
      },
      sv: { title: 'Svenska bolag', text: 'Kattaus köper Lithells, Lönneberga och Ridderheims.' },
      en: {
        title: 'Swedish companies',
        text: 'Kattaus acquires Lithells, Lönneberga and Ridderheims.',
      },
    },
  },
  {
    year: 2010,
    texts: {
      fi: {
        title: 'Mestari Forsman',
        text: 'Perustajan nimeä kantava Mestari Forsman -sarja tuo käsityön makuja kauppoihin.',
      },
      sv: {
        title: 'Mestari Forsman',
        text: 'Serien Mestari Forsman, uppkallad efter grundaren, tar hantverkssmaker till butikerna.',
      },
      en: {
        title: 'Mestari Forsman',
        text: 'The Mestari Forsman range, named after the founder, brings craft flavours to stores.',
      },
    },
  },
  {
    year: 2015,
    texts: {
      fi: {
        title: 'Verkkokauppa',
        text: 'Lihakauppa avaa verkossa ja toimittaa lihaa kotiovelle.',
      },
      sv: {
        title: 'E-handel',
        text: 'Lihakauppa öppnar på nätet och levererar kött hem till dörren.',
      },
      en: { title: 'Online shop', text: 'Lihakauppa opens online and delivers meat to the door.' },
    },
  },
  {
    year: 2019,
    texts: {
      fi: {
        title: 'Uusiutuva sähkö',
        text: 'Kaikki tehtaat siirtyvät käyttämään uusiutuvaa sähköä.',
      },
      sv: { title: 'Förnybar el', text: 'Alla anläggningar går över till förnybar el.' },
      en: { title: 'Renewable electricity', text: 'All plants switch to renewable electricity.' },
    },
  },
  {
    year: 2021,
    texts: {
      fi: {
        title: 'Eläinten hyvinvointiohjelma',
        text: 'Kaikille sopimustiloille avataan eläinten hyvinvointiohjelma.',
      },
      sv: {
        title: 'Djurvälfärdsprogram',
        text: 'Ett djurvälfärdsprogram öppnas för alla kontraktsgårdar.',
      },
      en: {
        title: 'Animal welfare programme',
        text: 'An animal welfare programme opens to all contract farms.',
      },
    },
  },
  {
    year: 2023,
    texts: {
      fi: {
        title: 'Kuopion laajennus',
        text: 'Kuopion valmisruokatehdas kaksinkertaistaa kapasiteettinsa.',
      },
      sv: {
        title: 'Utbyggnad i Kuopio',
        text: 'Färdigmatsfabriken i Kuopio fördubblar sin kapacitet.',
      },
      en: { title: 'Kuopio extension', text: 'The Kuopio ready-meal plant doubles its capacity.' },
    },
  },
  {
    year: 2025,
    texts: {
      fi: {
        title: 'Hiilineutraali tehdas',
        text: 'Forssan tehdas on konsernin ensimmäinen hiilineutraali tuotantolaitos.',
      },
      sv: {
        title: 'Klimatneutral fabrik',
        text: 'Fabriken i Forssa blir koncernens första klimatneutrala anläggning.',
      },
      en: {
        title: 'Carbon-neutral plant',
        text: 'The Forssa plant becomes the Group’s first carbon-neutral site.',
      },
    },
  },
];

/** Open positions: title and city per language. */
export const jobs: Partial<Record<Lang, readonly (readonly [string, string])[]>> = {
  fi: [
    ['Tuotantotyöntekijä, leikkaamo', 'Seinäjoki'],
    ['Tuotantotyöntekijä, makkaratehdas', 'Forssa'],
    ['Kunnossapitoasentaja', 'Säkylä'],
    ['Automaatioasentaja', 'Forssa'],
    ['Laatupäällikkö', 'Seinäjoki'],
    ['Tuotekehitysasiantuntija', 'Vantaa'],
    ['Key Account Manager, päivittäistavarakauppa', 'Helsinki'],
    ['Myyntiedustaja, foodservice', 'Tampere'],
    ['Myyntiedustaja, foodservice', 'Oulu'],
    ['Varastotyöntekijä', 'Vantaa'],
    ['Kuljetussuunnittelija', 'Vantaa'],
    ['Tuotantopäällikkö', 'Kuopio'],
    ['Elintarviketyöntekijä, valmisruoka', 'Kuopio'],
    ['Eläinlääkäri, tuotantoeläinten terveydenhuolto', 'Säkylä'],
    ['Ohjelmistokehittäjä, verkkokauppa', 'Helsinki'],
    ['Kesätyöntekijä, tuotanto', 'Forssa'],
    ['Kesätyöntekijä, tuotanto', 'Seinäjoki'],
    ['Sähköasentaja', 'Turku'],
  ],
  en: [
    ['Export Sales Manager, Asia', 'Helsinki'],
    ['Software Developer, e-commerce', 'Helsinki'],
    ['Veterinarian, animal health care', 'Säkylä'],
    ['Quality Manager', 'Seinäjoki'],
    ['Data Analyst', 'Vantaa'],
  ],
  sv: [
    ['Produktionsmedarbetare, chark', 'Halmstad'],
    ['Underhållstekniker', 'Skara'],
    ['Kvalitetssamordnare', 'Kristianstad'],
    ['Key Account Manager, dagligvaruhandel', 'Stockholm'],
    ['Säljare, foodservice', 'Göteborg'],
    ['Lagermedarbetare', 'Halmstad'],
    ['Produktutvecklare', 'Malmö'],
    ['Sommarjobbare, produktion', 'Skara'],
  ],
};

/** School materials of the Finnish corporate site (and the Swedish one). */
export const schoolMaterials: Partial<
  Record<Lang, readonly (readonly [string, string, string])[]>
> = {
  fi: [
    [
      'Ruokaketju pellolta pöytään',
      'Miten ruoka syntyy? Tehtäviä ja kuvia ruokaketjun vaiheista.',
      'Alakoulu',
    ],
    ['Eläinten hyvinvointi maatilalla', 'Tutustu broileri- ja sikatilan arkeen.', 'Alakoulu'],
    ['Ruokahävikki kuriin', 'Laskutehtäviä ja kokeiluja kotitalousluokkaan.', 'Yläkoulu'],
    ['Proteiinit ja ravitsemus', 'Proteiinin lähteet ja lautasmalli.', 'Yläkoulu'],
    ['Kotitalouden reseptivihko', 'Kymmenen helppoa reseptiä kotitaloustunneille.', 'Kotitalous'],
    [
      'Hygienia keittiössä',
      'Lihan käsittely, kypsyyslämpötilat ja ristikontaminaatio.',
      'Kotitalous',
    ],
    ['Ilmastoviisas ruoka', 'Ruoan hiilijalanjälki ja miten sitä pienennetään.', 'Lukio'],
    ['Elintarviketeollisuus työpaikkana', 'Ammatteja tehtaalta tuotekehitykseen.', 'Lukio'],
    ['Pakkausten kierrätys', 'Mistä pakkaus on tehty ja mihin se lajitellaan?', 'Alakoulu'],
    ['Lihan matka kauppaan', 'Video ja tehtävät kylmäketjusta.', 'Yläkoulu'],
  ],
  sv: [
    ['Från jord till bord', 'Hur blir maten till? Uppgifter om livsmedelskedjan.', 'Lågstadiet'],
    ['Djurens välfärd', 'En dag på en kycklinggård.', 'Mellanstadiet'],
    ['Minska matsvinnet', 'Experiment för hemkunskapen.', 'Högstadiet'],
    ['Protein och näring', 'Proteinkällor och tallriksmodellen.', 'Högstadiet'],
    ['Klimatsmart mat', 'Matens klimatavtryck.', 'Gymnasiet'],
    ['Hygien i köket', 'Hantera kött säkert.', 'Hemkunskap'],
  ],
};

/** Production plants on the map widget: region and what the plant makes. */
export const mapRegions: Record<
  'fi' | 'se',
  readonly {
    region: Partial<Record<Lang, string>>;
    info: Partial<Record<Lang, string>>;
    plant: PlantKey;
  }[]
> = {
  fi: [
    {
      plant: 'forssa',
      region: { fi: 'Kanta-Häme', en: 'Tavastia Proper', sv: 'Egentliga Tavastland' },
      info: {
        fi: 'Makkarat ja leikkeleet, 450 työntekijää',
        en: 'Sausages and cold cuts, 450 employees',
        sv: 'Korv och pålägg, 450 anställda',
      },
    },
    {
      plant: 'seinajoki',
      region: { fi: 'Etelä-Pohjanmaa', en: 'South Ostrobothnia', sv: 'Södra Österbotten' },
      info: {
        fi: 'Teurastus ja leikkuu, 900 työntekijää',
        en: 'Slaughter and cutting, 900 employees',
        sv: 'Slakt och styckning, 900 anställda',
      },
    },
    {
      plant: 'sakyla',
      region: { fi: 'Satakunta', en: 'Satakunta', sv: 'Satakunda' },
      info: {
        fi: 'Broileri, 700 työntekijää',
        en: 'Chicken, 700 employees',
        sv: 'Kyckling, 700 anställda',
      },
    },
    {
      plant: 'kuopio',
      region: { fi: 'Pohjois-Savo', en: 'North Savo', sv: 'Norra Savolax' },
      info: {
        fi: 'Valmisruoat, 300 työntekijää',
        en: 'Ready meals, 300 employees',
        sv: 'Färdigmat, 300 anställda',
      },
    },
    {
      plant: 'vantaa',
      region: { fi: 'Uusimaa', en: 'Uusimaa', sv: 'Nyland' },
      info: {
        fi: 'Logistiikkakeskus ja pääkonttori, 250 työntekijää',
        en: 'Logistics centre and head office, 250 employees',
        sv: 'Logistikcentral och huvudkontor, 250 anställda',
      },
    },
    {
      plant: 'halmstad',
      region: { fi: 'Hallandin lääni', en: 'Halland County', sv: 'Hallands län' },
      info: {
        fi: 'Chark, 350 työntekijää',
        en: 'Charcuterie, 350 employees',
        sv: 'Chark, 350 anställda',
      },
    },
    {
      plant: 'skara',
      region: {
        fi: 'Länsi-Götanmaan lääni',
        en: 'Västra Götaland County',
        sv: 'Västra Götalands län',
      },
      info: {
        fi: 'Makkarat, 280 työntekijää',
        en: 'Sausages, 280 employees',
        sv: 'Korv, 280 anställda',
      },
    },
  ],
  se: [
    {
      plant: 'halmstad',
      region: { sv: 'Hallands län', en: 'Halland County' },
      info: {
        sv: 'Chark och pålägg, 350 anställda',
        en: 'Charcuterie and cold cuts, 350 employees',
      },
    },
    {
      plant: 'skara',
      region: { sv: 'Västra Götalands län', en: 'Västra Götaland County' },
      info: { sv: 'Korv och skinka, 280 anställda', en: 'Sausages and ham, 280 employees' },
    },
    {
      plant: 'kristianstad',
      region: { sv: 'Skåne län', en: 'Skåne County' },
      info: {
        sv: 'Färdigmat och snabbmat, 320 anställda',
        en: 'Ready meals and fast food, 320 employees',
      },
    },
    {
      plant: 'forssa',
      region: { sv: 'Egentliga Tavastland', en: 'Tavastia Proper' },
      info: { sv: 'Korv och pålägg, 450 anställda', en: 'Sausages and cold cuts, 450 employees' },
    },
    {
      plant: 'seinajoki',
      region: { sv: 'Södra Österbotten', en: 'South Ostrobothnia' },
      info: {
        sv: 'Slakt och styckning, 900 anställda',
        en: 'Slaughter and cutting, 900 employees',
      },
    },
    {
      plant: 'sakyla',
      region: { sv: 'Satakunda', en: 'Satakunta' },
      info: { sv: 'Kyckling, 700 anställda', en: 'Chicken, 700 employees' },
    },
  ],
};
