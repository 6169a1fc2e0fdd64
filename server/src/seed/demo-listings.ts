import type { Category } from '@campus/contract';
import { DEMO_BOOKS } from './demo-books.js';

/**
 * The demo listings of `npm run seed:demo`: books first (demo-books.ts), then the other categories.
 * The seed deals them round the open campuses in this order (seed.ts `share`).
 */

export interface DemoListing {
  name: string;
  category: Category;
  price: string;
  description: string;
  /** A few are already sold, so "Mark as Unsold" has something to show. */
  sold?: boolean;
  /** Books: the course they are for (normalised, e.g. CSE232), which makes course pages and chips. */
  courseCode?: string;
  /** Books: a real ISBN-13 (valid check digit), so an ISBN search finds them. */
  isbn?: string;
}

export const DEMO_LISTINGS: DemoListing[] = [
  ...DEMO_BOOKS,
  // ELECTRONICS
  {
    name: 'TI-84 Plus graphing calculator',
    category: 'ELECTRONICS',
    price: '55',
    description: 'Works perfectly, fresh batteries, cover included. Allowed on every math exam.',
  },
  {
    name: 'Noise cancelling headphones',
    category: 'ELECTRONICS',
    price: '140',
    description: 'Sony WH-1000XM4, black, with case and cable. Library-approved silence.',
  },
  {
    name: 'Mechanical keyboard',
    category: 'ELECTRONICS',
    price: '65',
    description: 'Tenkeyless, brown switches, RGB backlight. USB-C.',
  },
  {
    name: '24" monitor',
    category: 'ELECTRONICS',
    price: '90',
    description: '1080p IPS, HDMI and DisplayPort, stand included. Pickup near the engineering building.',
  },
  {
    name: 'Wireless earbuds',
    category: 'ELECTRONICS',
    price: '40',
    description: 'Bluetooth 5.3, charging case, three sizes of tips. Cleaned.',
  },
  {
    name: 'USB-C laptop charger 65W',
    category: 'ELECTRONICS',
    price: '22',
    description: 'Works with most USB-C laptops. Spare from my old setup.',
  },
  {
    name: 'Portable speaker',
    category: 'ELECTRONICS',
    price: '35',
    description: 'JBL Flip, waterproof, loud enough for a dorm floor.',
  },
  {
    name: 'Kindle Paperwhite',
    category: 'ELECTRONICS',
    price: '70',
    description: '8 GB, with a cover. Battery lasts weeks.',
    sold: true,
  },
  {
    name: 'Webcam 1080p',
    category: 'ELECTRONICS',
    price: '25',
    description: 'Clip-on webcam with a microphone. Great for online office hours.',
  },
  // LIFESTYLE
  {
    name: 'Mini fridge',
    category: 'LIFESTYLE',
    price: '85',
    description: '3.1 cu ft with a small freezer. Fits under a lofted bed. Pickup at Holmes Hall.',
  },
  {
    name: 'Microwave',
    category: 'LIFESTYLE',
    price: '35',
    description: '700 W, clean inside and out, turntable works.',
  },
  {
    name: 'Desk lamp with USB port',
    category: 'LIFESTYLE',
    price: '14',
    description: 'LED, three brightness levels, charges your phone too.',
  },
  {
    name: 'Twin XL sheet set',
    category: 'LIFESTYLE',
    price: '15',
    description: 'Navy blue, washed, fits the dorm mattresses.',
  },
  {
    name: 'Futon',
    category: 'LIFESTYLE',
    price: '120',
    description: 'Black futon that folds into a bed. Needs two people to carry.',
  },
  {
    name: 'Area rug 5x7',
    category: 'LIFESTYLE',
    price: '30',
    description: 'Gray and white pattern, makes a cold floor cozy.',
  },
  {
    name: 'Electric kettle',
    category: 'LIFESTYLE',
    price: '12',
    description: '1 litre, auto shut-off. Tea and ramen, sorted.',
  },
  {
    name: 'Storage bins (set of 4)',
    category: 'LIFESTYLE',
    price: '16',
    description: 'Stackable, clear, with lids. Under-bed size.',
  },
  {
    name: 'Coffee maker',
    category: 'LIFESTYLE',
    price: '20',
    description: '12-cup drip coffee maker with a reusable filter.',
    sold: true,
  },
  // EVENTS
  {
    name: 'Football tickets — homecoming',
    category: 'EVENTS',
    price: '60',
    description: 'Two student section tickets for the homecoming game. Transfer through the app.',
  },
  {
    name: 'Basketball season pass',
    category: 'EVENTS',
    price: '150',
    description: 'Student season pass, can’t make the games this semester.',
  },
  {
    name: 'Spring concert tickets',
    category: 'EVENTS',
    price: '45',
    description: 'Two floor tickets for the spring concert at the stadium.',
  },
  {
    name: 'Yoga mat',
    category: 'EVENTS',
    price: '15',
    description: 'Thick non-slip mat with a carrying strap. Used a handful of times.',
  },
  {
    name: 'Road bike',
    category: 'EVENTS',
    price: '220',
    description: 'Aluminium frame, 21 speeds, new tires. Helmet and lock included.',
  },
  {
    name: 'Tennis racket',
    category: 'EVENTS',
    price: '40',
    description: 'Wilson, restrung last month, with cover.',
  },
  {
    name: 'Intramural soccer cleats',
    category: 'EVENTS',
    price: '25',
    description: 'Size 10, worn one season of IM soccer.',
  },
  {
    name: 'Camping tent (2 person)',
    category: 'EVENTS',
    price: '50',
    description: 'Easy setup, rain fly included. Perfect for the outdoors club trips.',
  },
  {
    name: 'Formal gala tickets',
    category: 'EVENTS',
    price: '35',
    description: 'One ticket for the spring formal, dinner included.',
  },
  // SERVICES
  {
    name: 'Calculus tutoring',
    category: 'SERVICES',
    price: '25',
    description: 'Math major, A in MTH 132–234. One-hour sessions at the library, per hour.',
  },
  {
    name: 'Essay proofreading',
    category: 'SERVICES',
    price: '15',
    description: 'English major. Grammar, flow and citations, 48-hour turnaround, per essay.',
  },
  {
    name: 'Moving help',
    category: 'SERVICES',
    price: '40',
    description: 'Two of us with a van for move-in or move-out day, per hour.',
  },
  {
    name: 'Guitar lessons for beginners',
    category: 'SERVICES',
    price: '20',
    description: 'Learn your first songs in a month. Lessons in the music building, per hour.',
  },
  {
    name: 'Resume review',
    category: 'SERVICES',
    price: '10',
    description: 'Career fair ready: I review and mark up your resume in a day.',
  },
  {
    name: 'Bike repair and tune-up',
    category: 'SERVICES',
    price: '30',
    description: 'Brakes, gears, flats. I come to your bike rack.',
  },
  {
    name: 'Headshot photography',
    category: 'SERVICES',
    price: '35',
    description: '20-minute outdoor session on campus, ten edited photos for LinkedIn.',
  },
  {
    name: 'Python coding help',
    category: 'SERVICES',
    price: '25',
    description: 'Debugging and explaining CSE 231 projects (no doing it for you), per hour.',
  },
  // CLOTHING
  {
    name: 'Winter jacket',
    category: 'CLOTHING',
    price: '95',
    description: 'North Face down jacket, size M, very warm. Michigan winter approved.',
  },
  {
    name: 'Rain boots',
    category: 'CLOTHING',
    price: '30',
    description: 'Hunter boots, women’s size 8, barely worn.',
  },
  {
    name: 'University hoodie',
    category: 'CLOTHING',
    price: '20',
    description: 'Green, size L, soft inside. Washed.',
  },
  {
    name: 'Graduation gown and cap',
    category: 'CLOTHING',
    price: '25',
    description: 'Bachelor gown, fits 5’6”–5’9”, worn once.',
  },
  {
    name: 'Suit jacket',
    category: 'CLOTHING',
    price: '45',
    description: 'Navy, 40R, for career fairs and interviews. Dry cleaned.',
  },
  {
    name: 'Running shoes',
    category: 'CLOTHING',
    price: '35',
    description: 'Nike Pegasus, men’s 10, about 100 miles on them.',
  },
  {
    name: 'Wool scarf',
    category: 'CLOTHING',
    price: '12',
    description: 'Green and white, handmade, long enough to wrap twice.',
  },
  {
    name: 'Backpack',
    category: 'CLOTHING',
    price: '28',
    description: 'Laptop sleeve fits 15", water bottle pockets, no tears.',
    sold: true,
  },
  // OTHER
  {
    name: 'Board games bundle',
    category: 'OTHER',
    price: '40',
    description: 'Catan, Ticket to Ride and Codenames. All pieces counted.',
  },
  {
    name: 'Acoustic guitar',
    category: 'OTHER',
    price: '110',
    description: 'Yamaha, great beginner guitar, soft case and extra strings.',
  },
  {
    name: 'Bike locker sublease',
    category: 'OTHER',
    price: '40',
    description: 'Covered bike locker by the engineering building for the spring semester.',
  },
  {
    name: 'Houseplants (3)',
    category: 'OTHER',
    price: '18',
    description: 'Pothos, snake plant and a small monstera, with pots. Very hard to kill.',
  },
  {
    name: 'Art supplies kit',
    category: 'OTHER',
    price: '22',
    description: 'Acrylic paints, brushes and a sketchbook, leftover from a studio class.',
  },
  {
    name: 'Chess set',
    category: 'OTHER',
    price: '12',
    description: 'Wooden board and pieces, all 32 there.',
  },
  {
    name: 'Suitcase',
    category: 'OTHER',
    price: '30',
    description: 'Carry-on size, spinner wheels, TSA lock.',
  },
];
