/**
 * Deterministic synthetic listings for the benchmark: realistic names and descriptions per
 * category, drawn from a seeded PRNG so every run measures the same corpus.
 */
import { CATEGORIES, type Category } from '@campus/contract';
import { seededRandom } from '../../server/test/random.js';

export interface SyntheticListing {
  name: string;
  description: string;
  category: Category;
  priceCents: number;
}

/** The word lists, exported for the scale benchmark's SQL loader (bench/targets/scale-seed.ts). */
export const ITEMS: Record<Category, string[]> = {
  BOOKS: [
    'Calculus textbook',
    'Organic chemistry textbook',
    'Intro to psychology book',
    'Linear algebra notes',
    'Microeconomics textbook',
    'Physics lab manual',
    'Spanish workbook',
    'Statistics study guide',
    'Harry Potter box set',
    'GRE prep book',
    'MCAT review books',
    'Biology textbook',
    'Poetry anthology',
    'Data structures book',
    'Accounting principles textbook',
    'World history reader',
    'Novel collection',
    'Engineering drawing kit book',
    'French dictionary',
    'LSAT practice tests',
  ],
  ELECTRONICS: [
    'Graphing calculator',
    'Bluetooth headphones',
    'Mechanical keyboard',
    'Gaming mouse',
    'USB-C charger',
    'Laptop stand',
    'External monitor',
    'Wireless earbuds',
    'Portable speaker',
    'Phone tripod',
    'HDMI cable',
    'Power bank',
    'Webcam',
    'E-reader',
    'Tablet',
    'Noise cancelling headphones',
    'Desk lamp with USB port',
    'Router',
    'Gaming console',
    'Smart watch',
    'Digital camera',
    'Microphone',
  ],
  LIFESTYLE: [
    'Mini fridge',
    'Desk chair',
    'Futon',
    'Area rug',
    'Microwave',
    'Coffee maker',
    'Electric kettle',
    'Storage bins',
    'Twin XL sheets',
    'Mattress topper',
    'Floor lamp',
    'Shoe rack',
    'Mirror',
    'Bookshelf',
    'Bean bag chair',
    'Air fryer',
    'Laundry hamper',
    'Shower caddy',
    'Wall tapestry',
    'Houseplant',
    'Fan',
    'Space heater',
    'Dish set',
    'Toaster',
  ],
  EVENTS: [
    'Football tickets',
    'Basketball tickets',
    'Concert tickets',
    'Yoga mat',
    'Tennis racket',
    'Bike',
    'Skateboard',
    'Snowboard',
    'Hockey stick',
    'Soccer ball',
    'Climbing shoes',
    'Camping tent',
    'Dumbbells',
    'Formal gala tickets',
    'Intramural jersey',
    'Golf clubs',
    'Running shoes',
    'Kayak paddle',
  ],
  SERVICES: [
    'Math tutoring',
    'Essay proofreading',
    'Moving help',
    'Haircut',
    'Photography session',
    'Coding lessons',
    'Guitar lessons',
    'Resume review',
    'Bike repair',
    'Laptop repair',
    'Dog walking',
    'Room cleaning',
    'Chemistry tutoring',
    'Piano lessons',
    'Graphic design',
    'Furniture assembly',
  ],
  CLOTHING: [
    'Winter jacket',
    'Hoodie',
    'Rain boots',
    'Denim jeans',
    'Sneakers',
    'Formal dress',
    'Suit jacket',
    'Wool scarf',
    'Baseball cap',
    'Leather belt',
    'Backpack',
    'Sweater',
    'Snow boots',
    'Varsity jacket',
    'Graduation gown',
    'Dress shoes',
    'Flannel shirt',
    'Yoga pants',
  ],
  OTHER: [
    'Parking permit sublease',
    'Plant pots',
    'Board games',
    'Art supplies',
    'Sewing machine',
    'Guitar',
    'Keyboard piano',
    'Fish tank',
    'Poster frames',
    'Tool kit',
    'Suitcase',
    'Umbrella',
    'Craft paper',
    'Puzzle',
    'Vinyl records',
    'Camera film',
    'Easel',
    'Chess set',
  ],
};

export const ADJECTIVES = [
  'Lightly used',
  'Brand new',
  'Almost new',
  'Vintage',
  'Compact',
  'Large',
  'Small',
  'Black',
  'White',
  'Blue',
  'Green',
  'Red',
  'Gray',
  'Classic',
  'Portable',
  'Heavy duty',
  'Barely used',
  'Clean',
  'Cozy',
  'Sturdy',
];

export const BRANDS = [
  'Sony',
  'Apple',
  'Samsung',
  'Logitech',
  'IKEA',
  'Nike',
  'Adidas',
  'Pearson',
  'Texas Instruments',
  'Bose',
  'Anker',
  'Dell',
  'Lenovo',
  'Patagonia',
  'North Face',
  'Columbia',
  'Keurig',
  'Hamilton Beach',
  'Wilson',
  'Spalding',
  'Yamaha',
  'Canon',
  'Nikon',
  'JBL',
  'Razer',
  'Kindle',
];

export const OPENERS = [
  'Selling my',
  'Moving out, so selling my',
  'Graduating and need to get rid of my',
  'Upgraded, so my old',
  'Used for one semester:',
  'Barely touched',
  'Great condition',
  'Works perfectly,',
  'Clearing out my dorm:',
  'Bought this last fall,',
  'Gently used',
  'Like new',
];

export const DETAILS = [
  'No scratches or dents.',
  'Comes with the original box.',
  'Pickup near the library.',
  'Can meet at the student union.',
  'Price is negotiable.',
  'Cash or Venmo.',
  'Smoke-free and pet-free room.',
  'Available any weekday afternoon.',
  'Includes the charger and cable.',
  'Minor wear on the corners.',
  'Perfect for a freshman dorm.',
  'Message me with questions.',
  'First come, first served.',
  'Can deliver on campus.',
  'Pickup by Friday please.',
  'Still under warranty.',
  'Small stain, see photo.',
  'Used for two semesters.',
  'Great for studying late.',
  'Fits in a twin XL room.',
  'Works with Mac and Windows.',
  'Needs to go before move-out.',
  'Barely used, like new.',
  'Everything works.',
  'Bundle discount available.',
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

export const PRICE_RANGES: Record<Category, [number, number]> = {
  BOOKS: [5, 120],
  ELECTRONICS: [10, 600],
  LIFESTYLE: [5, 250],
  EVENTS: [8, 300],
  SERVICES: [10, 80],
  CLOTHING: [5, 150],
  OTHER: [3, 200],
};

export function syntheticListing(rand: () => number): SyntheticListing {
  const category = pick(rand, CATEGORIES);
  const item = pick(rand, ITEMS[category]);
  const useBrand = category !== 'SERVICES' && rand() < 0.4;
  const name = [rand() < 0.6 ? pick(rand, ADJECTIVES) : '', useBrand ? pick(rand, BRANDS) : '', item]
    .filter(Boolean)
    .join(' ');
  const sentences = [`${pick(rand, OPENERS)} ${item.toLowerCase()}.`];
  const n = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < n; i += 1) sentences.push(pick(rand, DETAILS));
  const [lo, hi] = PRICE_RANGES[category];
  const dollars = lo + Math.floor(rand() * (hi - lo));
  const cents = rand() < 0.3 ? 99 : rand() < 0.5 ? 50 : 0;
  return { name, description: sentences.join(' '), category, priceCents: dollars * 100 + cents };
}

export function syntheticListings(count: number, seed = 42): SyntheticListing[] {
  const rand = seededRandom(seed);
  return Array.from({ length: count }, () => syntheticListing(rand));
}

/** Mixed benchmark queries: exact words, typos, multi-word, category words. */
export const BENCH_QUERIES = [
  'calculator',
  'calculater',
  'graphing calculator',
  'mini fridge',
  'mini frige',
  'textbook',
  'textbok',
  'headphones',
  'hedphones',
  'desk chair',
  'winter jacket',
  'jaket',
  'tutoring',
  'tutring',
  'tickets',
  'football tickets',
  'bike',
  'lamp',
  'keyboard',
  'keybaord',
  'sony',
  'nike sneakers',
  'microwave',
  'microwve',
  'books',
  'electronics',
  'hoodie',
  'yoga mat',
  'guitar lessons',
  'charger',
];
