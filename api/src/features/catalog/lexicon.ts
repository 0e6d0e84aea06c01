import type { ProductCategory, ProductMaterial } from '../../../contract/constants';

/**
 * The jewellery lexicon: the words customers type for each category, material, purity and common piece, in
 * English, Tamil script, romanised Tamil (with the spellings people use by ear), Hindi and romanised Hindi.
 * Search reads every query through it (query-reading.ts): "ஜிமிக்கி", "jimikki", "jhumka" and "झुमका" all name
 * a jhumka, which is a kind of earring. docs/product-rules.md ("Search: the lexicon") says how to extend it;
 * tests/unit/search-lexicon.test.ts checks that every category and material has Tamil words and that no word
 * names two different things.
 *
 * Words are written in lower case; a form of several words ("toe ring", "கால் கொலுசு") is matched as a phrase.
 * Plurals need not be listed when they only add "s"/"es" (English) or "கள்" (Tamil): the reader strips those.
 */
export interface LexiconWords {
  en: readonly string[];
  /** Tamil script. */
  ta: readonly string[];
  /** Romanised Tamil ("Tanglish"), every common spelling. */
  taLatn: readonly string[];
  /** Hindi in Devanagari. */
  hi: readonly string[];
  /** Romanised Hindi. */
  hiLatn: readonly string[];
}

const w = (
  en: readonly string[],
  ta: readonly string[],
  taLatn: readonly string[],
  hi: readonly string[] = [],
  hiLatn: readonly string[] = [],
): LexiconWords => ({ en, ta, taLatn, hi, hiLatn });

/** The words for each category as a whole. */
export const CATEGORY_WORDS: Record<ProductCategory, LexiconWords> = {
  anklets: w(
    ['anklet', 'ankle chain', 'ankle bracelet', 'anklette', 'ancklet'],
    ['கொலுசு', 'கால் கொலுசு', 'காற்சிலம்பு', 'சிலம்பு', 'தண்டை'],
    ['kolusu', 'golusu', 'kolussu', 'kolsu', 'kal kolusu', 'kaal kolusu', 'silambu', 'thandai'],
    ['पायल', 'पाजेब', 'झांझर'],
    ['payal', 'paayal', 'pajeb', 'paijeb', 'jhanjhar', 'jhanjar', 'ghungroo'],
  ),
  armlets: w(
    ['armlet', 'arm band', 'armband', 'arm cuff'],
    ['வங்கி', 'அரவங்கி', 'தோள்வளை'],
    ['vanki', 'vangi', 'aravanki', 'aravangi', 'tholvalai'],
    ['बाजूबंद', 'बाजूबन्द'],
    ['bajuband', 'bajubandh', 'baju band', 'baju bandh', 'bazuband'],
  ),
  bangles: w(
    ['bangle', 'kada bangle'],
    ['வளையல்', 'வளையல்கள்', 'காப்பு', 'கடா'],
    ['valayal', 'valaiyal', 'valayalgal', 'kappu', 'kaappu'],
    ['चूड़ी', 'चूड़ियाँ', 'कंगन', 'कड़ा'],
    ['chudi', 'choodi', 'churi', 'chooriyan', 'kangan', 'kada', 'kadaa', 'kara'],
  ),
  bracelets: w(
    ['bracelet', 'braclet', 'bracelette', 'wrist chain', 'hand chain'],
    ['கைச்சங்கிலி', 'கை சங்கிலி', 'பிரேஸ்லெட்', 'கைச் செயின்'],
    ['kai sangili', 'kaisangili', 'kai chain', 'braslet', 'brasslet'],
    ['ब्रेसलेट'],
    ['breslet'],
  ),
  bridal_sets: w(
    ['bridal set', 'bridal', 'wedding set', 'bridal jewellery', 'bridal jewelry', 'wedding jewellery'],
    ['மணப்பெண் நகை', 'மணப்பெண் நகைத் தொகுப்பு', 'திருமண நகை', 'கல்யாண நகை', 'மணப்பெண்'],
    ['kalyana nagai', 'kalyanam set', 'thirumana nagai', 'manapen nagai', 'bridal nagai'],
    ['दुल्हन सेट', 'शादी सेट'],
    ['dulhan set', 'shaadi set', 'shadi set'],
  ),
  chains: w(
    ['chain', 'mangalsutra chain'],
    ['சங்கிலி', 'சங்கிலிகள்', 'செயின்', 'தாலிக்கொடி', 'தாலி கொடி', 'கொடி'],
    ['sangili', 'sangli', 'changili', 'chain', 'chaine', 'thali kodi', 'thalikodi', 'kodi'],
    ['चेन', 'ज़ंजीर', 'जंजीर'],
    ['chen', 'zanjeer', 'janjeer'],
  ),
  earrings: w(
    ['earring', 'ear ring', 'ear rings', 'stud', 'hoop', 'ear stud', 'ear drop', 'earing', 'earings'],
    ['காதணி', 'காதணிகள்', 'கம்மல்', 'தோடு', 'காதுத்தோடு', 'கடுக்கன்'],
    ['kammal', 'kamal', 'kammul', 'thodu', 'thoodu', 'todu', 'kadhani', 'kaathani', 'kathani', 'kadukkan'],
    ['बाली', 'बालियाँ', 'कान की बाली', 'कुंडल', 'टॉप्स'],
    ['bali', 'baali', 'balli', 'kaan ki bali', 'kundal', 'tops'],
  ),
  hair_accessories: w(
    ['hair accessory', 'hair accessories', 'hair clip', 'hair pin', 'hair ornament', 'head piece'],
    [
      'கூந்தல் அணிகலன்',
      'ஜடை',
      'ஜடை பில்லை',
      'நெற்றிச்சுட்டி',
      'நெத்திச்சுட்டி',
      'சுட்டி',
      'ஜடைநாகம்',
      'சூடாமணி',
      'ராக்கொடி',
    ],
    [
      'jadai',
      'jadai billai',
      'jada billa',
      'nethi chutti',
      'nethichutti',
      'netri chutti',
      'chutti',
      'jada nagam',
      'jadanagam',
      'choodamani',
      'rakodi',
      'rakkodi',
      'papidi billa',
    ],
    ['मांग टीका', 'टीका', 'माथा पट्टी'],
    ['maang tikka', 'mang tikka', 'maang teeka', 'tikka', 'teeka', 'matha patti', 'mathapatti'],
  ),
  necklaces: w(
    [
      'necklace',
      'neckless',
      'necklase',
      'neklace',
      'nekles',
      'necklac',
      'choker',
      'neck piece',
      'necklace set',
    ],
    ['நெக்லஸ்', 'நெக்லஸ்கள்', 'ஆரம்', 'மாலை', 'அட்டிகை', 'காசு மாலை', 'மாங்காய் மாலை', 'கழுத்தணி'],
    [
      'haram',
      'aaram',
      'aram',
      'mala',
      'malai',
      'maalai',
      'attigai',
      'addigai',
      'kasu mala',
      'kasu malai',
      'mango mala',
      'mangai malai',
      'kazhuthani',
    ],
    ['हार', 'नेकलेस', 'माला', 'गलोबंद'],
    ['haar', 'galoband', 'rani haar'],
  ),
  nose_pins: w(
    ['nose pin', 'nose stud', 'nose ring', 'nosepin', 'nose screw'],
    ['மூக்குத்தி', 'மூக்குத்திகள்', 'புல்லாக்கு', 'பேசரி'],
    ['mookuthi', 'mukkuthi', 'mookkuthi', 'mooku thi', 'mookuti', 'pullakku', 'besari', 'bulaq'],
    ['नथ', 'नथनी', 'लौंग', 'कील'],
    ['nath', 'nathni', 'nathiya', 'laung'],
  ),
  pendants: w(
    ['pendant', 'pendent', 'locket', 'pandent'],
    ['பதக்கம்', 'பதக்கங்கள்', 'டாலர்', 'லாக்கெட்', 'பென்டன்ட்'],
    ['dollar', 'dolar', 'doller', 'daalar', 'pathakkam', 'padakkam', 'lacket', 'laket'],
    ['लॉकेट', 'पेंडेंट'],
    ['loket', 'pendal'],
  ),
  rings: w(
    ['ring', 'finger ring', 'band ring', 'engagement ring'],
    ['மோதிரம்', 'மோதிரங்கள்', 'விரல் மோதிரம்'],
    ['mothiram', 'modhiram', 'mothram', 'motiram', 'muthiram', 'mothirangal'],
    ['अंगूठी', 'छल्ला'],
    ['angoothi', 'anguthi', 'angothi', 'angutthi', 'chhalla', 'challa'],
  ),
  toe_rings: w(
    ['toe ring', 'toe rings', 'toering'],
    ['மெட்டி', 'மெட்டிகள்', 'கால் மெட்டி', 'கால்விரல் மோதிரம்'],
    ['metti', 'meti', 'mettie', 'kal metti', 'kaal metti'],
    ['बिछिया', 'बिछुआ', 'बिछिये'],
    ['bichiya', 'bichia', 'bichhiya', 'bichua', 'bichhua', 'bichiye'],
  ),
  waist_chains: w(
    ['waist chain', 'waist belt', 'hip chain', 'waistband', 'belly chain'],
    ['ஒட்டியாணம்', 'ஒட்டியானம்', 'இடுப்புச் சங்கிலி', 'இடுப்பு சங்கிலி', 'அரைஞாண்', 'வடாணம்'],
    [
      'ottiyanam',
      'oddiyanam',
      'odiyanam',
      'ottiyaanam',
      'vaddanam',
      'vadanam',
      'iduppu sangili',
      'araignan',
      'arainjan',
    ],
    ['कमरबंद', 'कमरबन्द', 'करधनी', 'तगड़ी'],
    ['kamarband', 'kamarbandh', 'kamar band', 'kamarbund', 'kardhani', 'kandora', 'tagdi'],
  ),
};

/** The words for each material. */
export const MATERIAL_WORDS: Record<ProductMaterial, LexiconWords> = {
  artificial: w(
    [
      'artificial',
      'imitation',
      'fashion jewellery',
      'fashion jewelry',
      'gold plated',
      'gold-plated',
      'one gram gold',
      '1 gram gold',
      'costume',
    ],
    ['கவரிங்', 'கவரிங் நகை', 'ஒரு கிராம் தங்கம்', 'போலி நகை'],
    ['covering', 'kavaring', 'covering nagai', 'oru gram', 'one gram'],
    ['नकली', 'आर्टिफिशियल'],
    ['nakli', 'naqli', 'artifical'],
  ),
  brass: w(
    ['brass'],
    ['பித்தளை'],
    ['pithalai', 'pitthalai', 'pithala'],
    ['पीतल'],
    ['peetal', 'pital', 'pittal'],
  ),
  copper: w(
    ['copper'],
    ['செம்பு', 'தாமிரம்'],
    ['sembu', 'chembu', 'semmbu', 'thamiram'],
    ['तांबा', 'ताम्बा'],
    ['tamba', 'taamba', 'tanba'],
  ),
  diamond: w(
    ['diamond', 'diamonds', 'daimond', 'dimond'],
    ['வைரம்', 'வைர', 'வைரங்கள்'],
    ['vairam', 'vaira', 'vayiram', 'vairamm'],
    ['हीरा', 'हीरे'],
    ['heera', 'hira', 'heere', 'heeray'],
  ),
  emerald: w(
    ['emerald', 'emarald', 'emrald'],
    ['மரகதம்', 'மரகத', 'பச்சைக்கல்'],
    ['maragatham', 'marakatham', 'maragadam', 'pachai kal'],
    ['पन्ना'],
    ['panna', 'pannah'],
  ),
  gold: w(
    ['gold', 'golden'],
    ['தங்கம்', 'தங்க', 'தங்கச்', 'தங்கத்', 'பொன்', 'சொர்ணம்'],
    ['thangam', 'thanga', 'tangam', 'thangham', 'ponnu', 'pon', 'swarnam'],
    ['सोना', 'सोने', 'स्वर्ण'],
    ['sona', 'sone', 'sonay', 'swarna'],
  ),
  kundan: w(['kundan', 'kundhan'], ['குந்தன்'], ['kundhan', 'kunthan'], ['कुंदन', 'कुन्दन'], []),
  meenakari: w(
    ['meenakari', 'enamel', 'enamelled'],
    ['மீனாகாரி', 'மீனா'],
    ['minakari', 'meenakaari', 'meena'],
    ['मीनाकारी'],
    ['minakaari'],
  ),
  pearl: w(
    ['pearl', 'perl'],
    ['முத்து', 'முத்துக்கள்'],
    ['muthu', 'mutthu', 'muttu'],
    ['मोती'],
    ['moti', 'motee', 'mothi'],
  ),
  platinum: w(
    ['platinum', 'platinam', 'pt950'],
    ['பிளாட்டினம்', 'பிளாட்டின'],
    ['platinam', 'pilattinam'],
    ['प्लेटिनम'],
    ['pletinum'],
  ),
  polki: w(['polki', 'uncut diamond', 'uncut'], ['போல்கி'], ['polky'], ['पोल्की', 'पोलकी'], ['polkee']),
  ruby: w(
    ['ruby', 'rubies', 'kemp ruby'],
    ['மாணிக்கம்', 'மாணிக்க', 'சிவப்புக்கல்'],
    ['manikkam', 'maanikkam', 'manickam', 'sivappu kal'],
    ['माणिक', 'माणिक्य', 'रूबी'],
    ['manik', 'manikya'],
  ),
  sapphire: w(
    ['sapphire', 'saphire'],
    ['நீலக்கல்', 'நீலம்'],
    ['neelakkal', 'neela kal', 'neelam'],
    ['नीलम'],
    ['nilam'],
  ),
  silver: w(
    ['silver', 'sterling silver', 'sterling', 'oxidised silver', 'oxidized silver'],
    ['வெள்ளி', 'வெள்ளிக்', 'வெள்ளிச்'],
    ['velli', 'vellli', 'veli'],
    ['चांदी', 'चाँदी'],
    ['chandi', 'chaandi', 'chandee'],
  ),
  temple_jewelry: w(
    ['temple', 'temple jewellery', 'temple jewelry', 'kemp', 'nagas', 'antique temple'],
    ['கோயில் நகை', 'கோவில் நகை', 'கோயில்', 'கெம்ப்', 'நகாஸ்'],
    ['kovil nagai', 'koil nagai', 'kovil', 'koil', 'nakas', 'kemp kal'],
    ['टेंपल ज्वेलरी', 'मंदिर आभूषण'],
    ['mandir'],
  ),
};

/** Purities as products state them (the purity column), and the words for each. */
export const PURITY_WORDS: Record<string, LexiconWords> = {
  '24K': w(
    ['24k', '24kt', '24 kt', '24ct', '24 carat', '24 karat', '999'],
    ['24 காரட்', '24 கேரட்'],
    ['24 karat'],
    ['24 कैरेट'],
    [],
  ),
  '22K': w(
    ['22k', '22kt', '22 kt', '22ct', '22 carat', '22 karat', '916', 'kdm'],
    ['22 காரட்', '22 கேரட்'],
    ['22 karat'],
    ['22 कैरेट'],
    [],
  ),
  '18K': w(
    ['18k', '18kt', '18 kt', '18ct', '18 carat', '18 karat', '750'],
    ['18 காரட்', '18 கேரட்'],
    ['18 karat'],
    ['18 कैरेट'],
    [],
  ),
  '925': w(['925', 'sterling 925'], ['925 வெள்ளி'], ['925 velli'], [], []),
};

/**
 * Pieces: a kind of a category (a jhumka is an earring), sometimes of a material too (a kasu mala is gold).
 * Searching for a piece finds its category, and ranks the pieces whose names carry any of its words first.
 */
export interface LexiconPiece {
  /** The piece's name in the locales (catalog search's `pieces.<id>`), for "We have no … yet" (§20.2). */
  id: string;
  category: ProductCategory;
  material?: ProductMaterial;
  words: LexiconWords;
}

export const PIECES: readonly LexiconPiece[] = [
  {
    id: 'jhumka',
    category: 'earrings',
    words: w(
      ['jhumka', 'jhumki', 'jumka', 'jhumkas', 'jhumkis', 'bell earring'],
      ['ஜிமிக்கி', 'ஜிமிக்கிகள்', 'ஜும்கா', 'சிமிக்கி'],
      ['jimikki', 'jimiki', 'jimmiki', 'jimikky', 'jimukki', 'jimikkis', 'simikki', 'jhimikki', 'jimmikki'],
      ['झुमका', 'झुमकी', 'झुमके'],
      ['jhumke', 'jumki', 'jhoomka'],
    ),
  },
  {
    id: 'chandbali',
    category: 'earrings',
    words: w(
      ['chandbali', 'chand bali', 'chandbalis'],
      ['சாந்த்பாலி', 'சந்திரபாலி'],
      ['chandbaali', 'chandrabali'],
      ['चांदबाली', 'चाँदबाली'],
      ['chaandbali'],
    ),
  },
  {
    id: 'studs',
    category: 'earrings',
    words: w(['stud earring', 'studs'], ['கல் தோடு', 'வைரத்தோடு'], ['kal thodu', 'vaira thodu'], ['टॉप्स'], []),
  },
  {
    id: 'lakshmi_haram',
    category: 'necklaces',
    words: w(
      ['lakshmi haram', 'lakshmi necklace'],
      ['லட்சுமி ஆரம்', 'லக்ஷ்மி ஆரம்'],
      ['lakshmi aaram', 'lakshmi haaram'],
      [],
      [],
    ),
  },
  {
    id: 'kasu_mala',
    category: 'necklaces',
    material: 'gold',
    words: w(
      ['coin necklace', 'kasu mala'],
      ['காசு மாலை', 'காசுமாலை'],
      ['kasu malai', 'kaasu mala', 'kasumalai'],
      ['सिक्का हार'],
      ['sikka haar'],
    ),
  },
  {
    id: 'guttapusalu',
    category: 'necklaces',
    words: w(['guttapusalu', 'gutta pusalu'], ['குட்டபுசலு'], ['guttapoosalu'], [], []),
  },
  {
    id: 'mangalsutra',
    category: 'chains',
    words: w(
      ['mangalsutra', 'mangal sutra', 'thali chain'],
      ['தாலி', 'மங்கலசூத்திரம்', 'திருமாங்கல்யம்'],
      ['thali', 'thaali', 'thirumangalyam', 'mangalyam'],
      ['मंगलसूत्र'],
      ['mangalsutr', 'mangalsootra'],
    ),
  },
  {
    id: 'kada',
    category: 'bangles',
    words: w(['kada', 'cuff bangle'], ['காப்பு', 'கடா'], ['kaapu', 'kappu'], ['कड़ा'], ['kadaa']),
  },
  {
    id: 'maang_tikka',
    category: 'hair_accessories',
    words: w(
      ['maang tikka', 'forehead piece'],
      ['நெற்றிச்சுட்டி', 'நெத்திச்சுட்டி'],
      ['nethi chutti', 'nethichutti', 'netri chutti'],
      ['मांग टीका'],
      ['maang tikka', 'mang tika'],
    ),
  },
];

/**
 * Words that say "jewellery" or how a piece is wanted without naming it: a search never requires them
 * ("gold jewellery" is a search for gold), though they still count for ranking.
 */
export const GENERIC_WORDS: LexiconWords = w(
  [
    'jewellery',
    'jewelry',
    'jewel',
    'jewels',
    'ornament',
    'design',
    'designs',
    'new',
    'latest',
    'for',
    'women',
    'ladies',
    'girls',
    'with',
    'and',
    'in',
    'of',
    'pair',
    'set',
    'piece',
    'buy',
    'online',
  ],
  ['நகை', 'நகைகள்', 'ஆபரணம்', 'ஆபரணங்கள்', 'அணிகலன்', 'டிசைன்', 'புதிய', 'பெண்களுக்கான', 'ஜோடி'],
  ['nagai', 'nagaigal', 'naga', 'abaranam', 'aabharanam', 'pudhu', 'puthiya', 'jodi'],
  ['गहने', 'गहना', 'ज़ेवर', 'जेवर', 'आभूषण', 'के', 'की', 'का'],
  ['gehne', 'gahne', 'gehna', 'zevar', 'jewar', 'aabhushan', 'ke', 'ki', 'ka'],
);
