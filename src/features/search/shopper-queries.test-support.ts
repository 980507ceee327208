/**
 * The shopper judged set of issue 38: what people type into a Finnish (and Swedish) food shop's
 * search box, written from the seeded catalogue's product and recipe titles (seed/) and from how
 * shoppers talk, before the synonyms, derived forms and length-tuned typos were built: colloquial
 * and dialect words (kana for broileri, possu for porsas, lenkki for makkara, jauhis), descriptive
 * forms where titles have a compound or a participle (pippurinen → pippuri, valkosipulinen →
 * valkosipuli, keitetty kinkku → keittokinkku), loanwords misspelt by one or two letters
 * (bratwrust, choritso), compounds split or joined and words in either order (maustettu
 * jauheliha for Jauheliha maustettu). None of them is in the other judged sets.
 *
 * Relevance rule (fixed with the queries): a hit counts when it is a product or a recipe whose
 * lower-cased title satisfies one of the `subject` alternatives. An alternative is one or more
 * parts joined by `&`, each of which the title must contain; a part may list options with `|`
 * (`broiler|kana&hunaja`: a title holding broiler or kana, and hunaja). The documents that count
 * are so named by their titles; whether any exists is asked of the products and recipes tables,
 * not of the search (`wrongMarks` in the measure).
 */
export type ShopperKind =
  | 'colloquial' // a shopper's or dialect word for the catalogue's (kana → broileri, jauhis)
  | 'descriptive' // adjective or participle for the title's word (pippurinen, keitetty, marinoidut)
  | 'loanword' // a foreign word misspelt or written the Finnish/Swedish way (bratwrust, choritso)
  | 'english' // an English word for a Finnish or Swedish title (pulled pork, bacon, nuggets)
  | 'split' // a compound written apart (karjalan paisti)
  | 'joined' // words written together that titles keep apart (luomujauheliha)
  | 'order' // the title's words in another order (maustettu jauheliha)
  | 'typo'; // a slip in a native word

export type ShopperLang = 'fi' | 'sv';

export interface ShopperQuery {
  site: string;
  lang: ShopperLang;
  q: string;
  kind: ShopperKind;
  /** Alternatives; a relevant title satisfies one (see the rule above). */
  subject: readonly string[];
}

type Row = [q: string, kind: ShopperKind, subject: string | readonly string[]];

function rows(site: string, lang: ShopperLang, list: readonly Row[]): ShopperQuery[] {
  return list.map(([q, kind, subject]) => ({
    site,
    lang,
    q,
    kind,
    subject: typeof subject === 'string' ? [subject] : subject,
  }));
}

/** Whether a lower-cased title satisfies a subject alternative (`a&b|c`). */
export function titleSatisfies(title: string, alternative: string): boolean {
  const lower = title.toLowerCase();
  return alternative
    .toLowerCase()
    .split('&')
    .every((part) => part.split('|').some((option) => lower.includes(option)));
}

const CHICKEN = 'broiler|kana';
const PORK = 'porsa|possu';

export const shopperQueries: readonly ShopperQuery[] = [
  // The meat shop: raw cuts, minced meat, sausages, marinated chicken; home-cooking recipes.
  ...rows('lihakauppa', 'fi', [
    ['kanan rintafilee', 'colloquial', 'rintafilee'],
    ['kanan siivet', 'colloquial', 'siivet'],
    ['kanafilee', 'colloquial', ['broilerin rintafilee', 'broilerin sisäfilee', 'broilerin filee']],
    ['kanan jauheliha', 'colloquial', 'broilerin jauheliha'],
    ['kanakebab', 'colloquial', 'broilerikebab'],
    ['kananugetit', 'colloquial', 'broilerinugetit'],
    ['kanan koivet', 'colloquial', ['koivet', 'koipireidet']],
    ['possu', 'colloquial', [PORK]],
    ['possun kyljys', 'colloquial', ['porsaan kyljys', 'porsaankyljykset']],
    ['possun ulkofilee', 'colloquial', 'porsaan ulkofilee'],
    ['possun jauheliha', 'colloquial', 'porsaan jauheliha'],
    ['sian niska', 'colloquial', 'porsaan niskapala'],
    ['sian suikale', 'colloquial', 'porsaan suikale'],
    ['lenkki juusto', 'colloquial', 'lenkkimakkara juusto'],
    ['härän sisäfilee', 'colloquial', 'naudan sisäfilee'],
    ['häränfilee', 'colloquial', ['naudan sisäfilee', 'naudan ulkofilee']],
    ['härän paahtopaisti', 'colloquial', 'paahtopaisti'],
    ['jauhis', 'colloquial', 'jauheliha'],
    ['sekajauheliha', 'colloquial', 'sika-nauta'],
    ['seka jauheliha', 'colloquial', 'sika-nauta'],
    ['nyhtökana', 'colloquial', 'nyhtöbroileri'],
    ['purilainen', 'colloquial', ['hampurilai', 'burger']],
    ['chili makkara', 'order', 'makkara chili'],
    ['chilimakkara', 'joined', 'makkara chili'],
    ['valkosipulimakkara', 'joined', 'makkara valkosipuli'],
    ['valkosipulinen makkara', 'descriptive', 'makkara valkosipuli'],
    ['valkosipulinen wieninakki', 'descriptive', 'wieninakki valkosipuli'],
    ['pippurinen pekoni', 'descriptive', 'pekoni&pippuri'],
    ['pippurinen entrecote', 'descriptive', 'entrecôte pippuri'],
    ['hunajamarinoitu kana', 'descriptive', 'hunajamarinoitu'],
    ['teriyaki kana', 'order', 'teriyaki'],
    ['chilimarinoidut siivet', 'descriptive', 'siivet chilimarinoitu'],
    ['grillimarinoitu possu', 'descriptive', `${PORK}&grillimarinoitu`],
    ['marinoitu porsaan sisäfilee', 'descriptive', 'porsaan sisäfilee grillimarinoitu'],
    ['sitruunapippuri kana', 'descriptive', 'sitruunapippurimarinoitu'],
    ['kypsytetty entrecote', 'order', 'entrecôte kypsytetty'],
    ['porsaan kylki', 'split', 'grillikylki'],
    ['maustettu jauheliha', 'order', 'jauheliha maustettu'],
    ['maustettua jauhelihaa', 'order', 'jauheliha maustettu'],
    ['kevyt jauheliha', 'order', 'jauheliha kevyt'],
    ['luomujauheliha', 'joined', 'jauheliha luomu'],
    ['luomupekoni', 'joined', 'pekoni&luomu'],
    ['sika nauta jauheliha', 'split', 'sika-nauta'],
    ['kalkkuna jauheliha', 'split', 'kalkkunan jauheliha'],
    ['bratwrust', 'loanword', 'bratwurst'],
    ['bratvursti', 'loanword', 'bratwurst'],
    ['brattwurst', 'loanword', 'bratwurst'],
    ['entrekote', 'loanword', 'entrecôte'],
    ['choritso', 'loanword', 'chorizo'],
    ['cabanossi', 'loanword', 'kabanossi'],
    ['vieninakki', 'loanword', 'wieninakki'],
    ['jahtimakkra', 'typo', 'jahtimakkara'],
    ['minuuttipihvi nauta', 'order', 'naudan minuuttipihvi'],
    ['rintapala nauta', 'order', 'naudan rintapala'],
    ['brisket', 'english', 'rintapala'],
    ['pulled pork', 'english', 'nyhtöpossu'],
    ['pulled chicken', 'english', 'nyhtöbroileri'],
    ['bacon', 'english', 'pekoni'],
    ['hotdog', 'english', 'hodari'],
    ['karjalan paisti', 'split', 'karjalanpaisti'],
    ['makkara stroganoff', 'split', 'makkarastroganoff'],
    ['pekoni keitto', 'split', 'pekonikeitto'],
    ['spagetti bolognaise', 'loanword', 'bolognese'],
    ['lasanje', 'loanword', 'lasagne'],
    ['stroganov', 'loanword', 'stroganoff'],
    ['jauheliha tacos', 'english', 'jauhelihatacot'],
    ['pytti pannu', 'split', 'pyttipannu'],
  ]),
  // The broiler brand: chicken cuts, marinades, cold cuts and chicken recipes.
  ...rows('jyvabroiler', 'fi', [
    ['kanan fileesuikaleet', 'colloquial', 'fileesuikale'],
    ['kanasuikaleet', 'colloquial', 'fileesuikale'],
    ['kanakuutiot', 'colloquial', 'fileekuutio'],
    ['kanavartaat', 'colloquial', ['grillivartaat', 'broilerivartaat']],
    ['kanan reisifilee', 'colloquial', 'reisifilee'],
    ['kanapihvi', 'colloquial', 'broilerin fileepihvi'],
    ['kanaleike', 'colloquial', 'broilerileike'],
    ['kanan ohutleike', 'colloquial', 'ohutleike'],
    ['kanawokki', 'colloquial', 'broileriwokki'],
    ['kanapasta', 'colloquial', 'broileripasta'],
    ['kanalasagne', 'colloquial', 'broilerilasagne'],
    ['kanakastike', 'colloquial', 'broilerikastike'],
    ['kanatortillat', 'colloquial', 'broileritortilla'],
    ['kanapyörykät', 'colloquial', 'broileripyörykät'],
    ['kokonainen kana', 'colloquial', 'kokonainen broileri'],
    ['uunikana', 'colloquial', 'uunibroileri'],
    ['broileriburgeri', 'colloquial', 'kanaburger'],
    ['broilerikeitto', 'colloquial', 'kanakeitto'],
    ['broilerisalaatti', 'colloquial', 'kanasalaatti'],
    ['broilericurry', 'colloquial', 'kanacurry'],
    ['broilerikiusaus', 'colloquial', 'kanakiusaus'],
    ['yrttimarinoidut koivet', 'descriptive', 'koivet yrttimarinoitu'],
    ['yrttinen broileri', 'descriptive', `${CHICKEN}&yrtti`],
    ['hunajainen kana', 'descriptive', `${CHICKEN}&hunaja`],
    ['chilinen kana', 'descriptive', `${CHICKEN}&chili`],
    ['maustamaton kana', 'descriptive', 'maustamaton'],
    ['hunajamarinoidut siivet', 'descriptive', 'siivet hunajamarinoitu'],
    ['paprikainen broileri', 'descriptive', `${CHICKEN}&paprika`],
    ['teriyaki siivet', 'order', ['siivet', 'teriyaki']],
    ['chicken nuggets', 'english', 'nugetit'],
    ['nuggetit', 'loanword', 'nugetit'],
    ['metvursti', 'loanword', 'meetvursti'],
    ['meetwursti', 'loanword', 'meetvursti'],
    ['salaami', 'loanword', 'salami'],
    ['pastrami hunaja', 'order', 'pastrami hunaja'],
    ['lauantai makkara', 'split', 'lauantaimakkara'],
    ['kalkkunaleikkele', 'colloquial', 'kalkkunaleike'],
    ['paahtopaistileikkele', 'colloquial', 'paahtopaistileike'],
    ['lihapyörykät', 'colloquial', 'lihapull'],
    ['pikkulihapullat', 'colloquial', 'minilihapullat'],
    ['jauhis pihvit', 'colloquial', 'jauhelihapihvit'],
    ['kana curry', 'split', 'kanacurry'],
    ['curry kana', 'order', 'kanacurry'],
    ['kanacurri', 'typo', 'kanacurry'],
    ['kanasalaati', 'typo', 'kanasalaatti'],
    ['gluteeniton lihapullat', 'order', 'lihapullat gluteeniton'],
    ['laktoositon minilihapullat', 'order', 'minilihapullat laktoositon'],
    ['kevyt broileripyörykät', 'order', 'broileripyörykät kevyt'],
    ['kermainen kanakastike', 'colloquial', 'kermainen broilerikastike'],
    ['broileri tortilla', 'split', 'broileritortilla'],
  ]),
  // Food service: recipes for kitchens and catering packs.
  ...rows('ammattilaiset', 'fi', [
    ['hernari', 'colloquial', 'hernekeitto'],
    ['hernerokka', 'colloquial', 'hernekeitto'],
    ['kaalikäärylet', 'typo', 'kaalikääryleet'],
    ['makaroonilaatikko', 'typo', 'makaronilaatikko'],
    ['makaroni laatikko', 'split', 'makaronilaatikko'],
    ['maksa laatikko', 'split', 'maksalaatikko'],
    ['jauheliha perunalaatikko', 'split', ['jauhelihaperunalaatikko', 'lihaperunasoselaatikko']],
    ['purilaiset', 'colloquial', 'hampurilai'],
    ['bratvursti', 'loanword', 'bratwurst'],
    ['kinkkupiiras', 'colloquial', 'kinkkupiirakka'],
    ['kinkku piirakka', 'split', 'kinkkupiirakka'],
    ['kiusaus kinkku', 'order', 'kinkkukiusaus'],
    ['kana kiusaus', 'split', 'kanakiusaus'],
    ['curry broileri', 'order', ['broilericurry', 'kanacurry']],
    ['possupannu', 'colloquial', 'possunpannu'],
    ['porsaspannu', 'colloquial', 'possunpannu'],
    ['sianfilee', 'colloquial', ['porsaan sisäfilee', 'porsaanfilee', 'porsaan ulkofilee']],
    ['porsaan filee uunissa', 'split', 'porsaanfilee uunissa'],
    ['bernaise', 'loanword', 'bearnaise'],
    ['bearnese kastike', 'loanword', 'bearnaise'],
    ['stroganoffi', 'loanword', 'stroganoff'],
    ['nauta stroganoff', 'split', 'naudanlihastroganoff'],
    ['tacos', 'english', 'tacot'],
    ['spareribs', 'english', 'grillikylki'],
    ['ribsit', 'colloquial', 'grillikylki'],
    ['kanan koivet teriyaki', 'colloquial', 'koipireidet teriyakimarinoitu'],
    ['laktoositon maksalaatikko', 'order', 'maksalaatikko laktoositon'],
    ['gluteeniton lasagne', 'order', 'lasagne gluteeniton'],
    ['gluteenittomat lihapullat', 'order', 'lihapull'],
    ['maustettu broilerin jauheliha', 'order', 'broilerin jauheliha maustettu'],
    ['pippurinen naudan suikale', 'descriptive', 'naudan suikale pippuri'],
    ['pippurinen sisäfilee', 'descriptive', 'sisäfilee pippuri'],
    ['kypsytetty minuuttipihvi', 'order', 'minuuttipihvi kypsytetty'],
    ['grillimarinoitu entrecote', 'order', 'entrecôte grillimarinoitu'],
    ['valkosipulinen lenkki', 'descriptive', 'lenkkimakkara valkosipuli'],
    ['juustoinen bratwurst', 'descriptive', 'bratwurst juusto'],
    ['lenkki', 'colloquial', 'lenkkimakkara'],
    ['jauhis kastike', 'colloquial', 'jauhelihakastike'],
    ['lihapulla pasta', 'split', 'lihapullapasta'],
    ['kanan nugetit', 'colloquial', 'broilerinugetit'],
    ['sitruunapippuri kanafilee', 'colloquial', 'sitruunapippurimarinoitu'],
    ['hot dogit', 'english', 'hodari'],
    ['kinkkukiusaus gluteeniton', 'order', 'kinkkukiusaus gluteeniton'],
  ]),
  // The deli brand: hams, sausages, pâtés and cold cuts.
  ...rows('mestariforsmanfi', 'fi', [
    ['keitetty kinkku', 'descriptive', 'keittokinkku'],
    ['savukinkku', 'colloquial', 'palvikinkku'],
    ['sauna palvikinkku', 'split', 'saunapalvikinkku'],
    ['palvattu kinkku', 'descriptive', 'palvikinkku'],
    ['kinkku joulu', 'order', 'joulukinkku'],
    ['hunajainen kinkku', 'descriptive', 'kinkku&hunaja'],
    ['pippurinen salami', 'descriptive', 'salami pippuri'],
    ['pippurinen joulukinkku', 'descriptive', 'joulukinkku pippuri'],
    ['maksa makkara', 'split', 'maksamakkara'],
    ['maksapastee', 'loanword', 'maksapasteija'],
    ['pate', 'loanword', 'pasteija'],
    ['metsästäjän pasteija', 'split', 'metsästäjänpasteija'],
    ['meetwursti', 'loanword', 'meetvursti'],
    ['chorizzo', 'loanword', 'chorizo'],
    ['wienerit', 'colloquial', 'wieninakki'],
    ['nakit chili', 'colloquial', 'wieninakki chili'],
    ['grillilenkki', 'colloquial', ['lenkkimakkara', 'grillimakkara']],
    ['saunalenkki', 'colloquial', 'saunamakkara'],
    ['sauna makkara', 'split', 'saunamakkara'],
    ['uunilenkki', 'colloquial', 'uunimakkara'],
    ['kabanossit', 'loanword', 'kabanossi'],
    ['bratwrust', 'loanword', 'bratwurst'],
    ['bratwurst grilli', 'order', 'bratwurst bbq'],
    ['kinkkusuikaleet', 'typo', 'kinkkusuikale'],
    ['kinkku kuutiot', 'split', 'kinkkukuutiot'],
    ['kinkkuleikkele', 'colloquial', ['kinkkusuikale', 'keittokinkku', 'palvikinkku']],
    ['leikkele kalkkuna', 'colloquial', 'kalkkunaleike'],
    ['paahtopaisti leike', 'split', 'paahtopaistileike'],
    ['possun kyljykset', 'colloquial', 'porsaankyljykset'],
    ['possun filee uunissa', 'colloquial', 'porsaanfilee uunissa'],
    ['juhla kinkku', 'colloquial', 'joulukinkku'],
    ['pekoni pippuri', 'order', 'pekoni&pippuri'],
    ['pippurinen pekonisuikale', 'descriptive', 'pekonisuikale pippuri'],
    ['valkosipulinen saunamakkara', 'descriptive', 'saunamakkara valkosipuli'],
    ['chorizo makkara', 'split', 'chorizo-makkara'],
    ['kevyt maksapasteija', 'order', 'maksapasteija kevyt'],
    ['herne keitto', 'split', 'hernekeitto'],
    ['pastramia', 'loanword', 'pastrami'],
    ['nyhtöpossu burger', 'english', 'nyhtöpossuburger'],
    [
      'bolognese spagetti',
      'order',
      'naudanlihastroganoff|bolognese|makkarapasta|pekonipasta|kinkkupasta',
    ],
  ]),
  // The grill chain: burgers, hot dog sausages, chicken burgers.
  ...rows('sibylla', 'fi', [
    ['pikkunakit', 'colloquial', 'cocktailnakki'],
    ['coctail nakki', 'loanword', 'cocktailnakki'],
    ['cocktailnakit', 'loanword', 'cocktailnakki'],
    ['jumbo nakki', 'split', 'jumbonakki'],
    ['jumbonakit', 'typo', 'jumbonakki'],
    ['hotdog makkara', 'english', 'hodarimakkara'],
    ['hot dog', 'english', 'hodari'],
    ['burgeripihvi', 'colloquial', 'hampurilaispihvi'],
    ['burger pihvi', 'english', 'hampurilaispihvi'],
    ['kanaburgeri', 'colloquial', ['kanahampurilainen', 'kanaburger']],
    ['chicken burger', 'english', ['kanahampurilainen', 'kanaburger']],
    ['pekoniburgeri', 'colloquial', 'pekonihampurilainen'],
    ['bacon burger', 'english', 'pekonihampurilainen'],
    ['mini hampurilaispihvi', 'split', 'minihampurilaispihvi'],
    ['naudanpihvi', 'colloquial', 'naudanlihapihvi'],
    ['nautapihvi', 'colloquial', 'naudanlihapihvi'],
    ['broilerpihvi', 'loanword', 'broileripihvi'],
    ['kanapihvi', 'colloquial', 'broileripihvi'],
    ['juustoinen nakki', 'descriptive', 'nakki juusto'],
    ['juustonakki', 'joined', 'nakki juusto'],
    ['chilinakit', 'joined', 'nakki chili'],
    ['bbq nakki', 'order', 'nakki bbq'],
    ['tulinen hodari', 'descriptive', 'tuliset hodarit'],
    ['hampurilainen juusto', 'order', 'hampurilai&juusto'],
    ['kana hampurilainen', 'split', 'kanahampurilainen'],
  ]),
  // Swedish sites: the same habits in Swedish.
  ...rows('lithellsse', 'sv', [
    ['bacontärningar', 'colloquial', 'baconbitar'],
    ['färssås', 'colloquial', 'köttfärssås'],
    ['köttfärsås', 'typo', 'köttfärssås'],
    ['kottbullar', 'typo', 'köttbullar'],
    ['koldolmar', 'typo', 'kåldolmar'],
    ['artsoppa', 'typo', 'ärtsoppa'],
    ['rökskinka', 'joined', 'rökt skinka'],
    ['kokskinka', 'joined', 'kokt skinka'],
    ['skinka jul', 'order', 'julskinka'],
    ['falu korv', 'split', 'falukorv'],
    ['roastbeef', 'english', 'rostbiff'],
    ['bratwust', 'loanword', 'bratwurst'],
    ['pepprig rostbiff', 'descriptive', 'rostbiff peppar'],
    ['kyckling pålägg', 'split', 'kycklingpålägg'],
    ['pålägg kyckling', 'order', 'kycklingpålägg'],
    ['medister', 'colloquial', 'medisterkorv'],
    ['spagetti bolognese', 'loanword', 'spaghetti bolognese'],
    ['karbonara', 'loanword', 'carbonara'],
    ['ärt soppa', 'split', 'ärtsoppa'],
    ['korvstroganof', 'loanword', 'korvstroganoff'],
  ]),
  ...rows('delise', 'sv', [
    ['kyckling vingar', 'split', 'kycklingvingar'],
    ['hotdog', 'english', 'varmkorv'],
    ['kycklingbröst', 'colloquial', 'kycklingfilé'],
    ['kyckling spett', 'split', 'kycklingspett'],
    ['grillkorvar', 'typo', 'grillkorv'],
    ['chorizzo', 'loanword', 'chorizo'],
    ['lantpate', 'loanword', 'lantpaté'],
    ['leverpastey', 'typo', 'leverpastej'],
    ['kycklingburgere', 'typo', 'kycklingburgare'],
    ['chicken wings', 'english', 'kycklingvingar'],
    ['honungsskinka', 'colloquial', 'skinka&honung'],
    ['kalkon pålägg', 'colloquial', 'kalkonbröst'],
    ['cocktail korv', 'split', 'cocktailkorv'],
    ['jumbo korv', 'split', 'jumbokorv'],
    ['wok kyckling', 'order', 'kycklingwok'],
  ]),
];
