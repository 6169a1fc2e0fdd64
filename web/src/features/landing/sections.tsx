import { CATEGORY_LABELS, CATEGORY_TILES, type CampusSummary, type Category } from '@campus/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { campusLabel, useCampuses, useCampusInfo } from '../../api/campus';
import { FindYourCampus } from '../campuses/FindYourCampus';
import { onlyVerifiedStudents } from '../campuses/wording';
import { useIsLoggedIn } from '../../session/navigation';
import {
  ArrowRightIcon,
  BoltIcon,
  CategoryIcon,
  ChatIcon,
  FilterIcon,
  PinIcon,
  ShieldIcon,
  WalletIcon,
} from '../../ui/icons';
import { AuthButtons } from './AuthButtons';

function SectionHeading({
  id,
  eyebrow,
  title,
  intro,
}: {
  id: string;
  eyebrow: string;
  title: string;
  intro?: string;
}) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
        {title}
      </h2>
      {intro && <p className="mt-4 text-lg text-slate-600">{intro}</p>}
    </div>
  );
}

/* ----------------------------------------------------------------------------- home (hero) */

const PREVIEW = [
  {
    name: 'Intro to Psychology, 8th ed.',
    price: '$24',
    tile: CATEGORY_LABELS.BOOKS,
    category: 'BOOKS' as Category,
  },
  {
    name: 'Mini fridge, 3.1 cu ft',
    price: '$60',
    tile: CATEGORY_LABELS.LIFESTYLE,
    category: 'LIFESTYLE' as Category,
  },
  {
    name: 'Calculus tutoring (1 h)',
    price: '$15',
    tile: CATEGORY_LABELS.SERVICES,
    category: 'SERVICES' as Category,
  },
];

export function HeroSection() {
  const campus = useCampusInfo();
  const campuses = useCampuses().data ?? [];
  const loggedIn = useIsLoggedIn();
  const [chosen, setChosen] = useState<CampusSummary | null>(null);
  // A deployment of one campus needs no finding; a logged-in student has theirs.
  const showPicker = campuses.length > 1 && !loggedIn;
  const name = chosen?.name ?? (campus.data ? campusLabel(campus.data) : null);
  return (
    <section
      id="home"
      aria-labelledby="home-heading"
      className="relative overflow-hidden bg-gradient-to-b from-brand-50 to-white"
    >
      <div
        aria-hidden="true"
        className="absolute -top-40 -right-40 h-[28rem] w-[28rem] rounded-full bg-brand-100/70 blur-3xl"
      />
      <div className="relative mx-auto grid max-w-7xl grid-cols-1 items-center gap-12 px-4 py-14 sm:px-6 sm:py-20 lg:grid-cols-2 lg:px-8 lg:py-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white px-3 py-1 text-sm font-semibold text-brand-800 shadow-xs">
            <ShieldIcon size={16} className="shrink-0" />
            {onlyVerifiedStudents(name)}
          </p>
          <h1
            id="home-heading"
            className="mt-5 text-4xl leading-[1.1] font-extrabold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl"
          >
            Buy and sell on campus, <span className="text-brand-700">student to student.</span>
          </h1>
          <p className="mt-5 max-w-xl text-lg text-slate-600">
            Textbooks, dorm essentials, electronics and services from people who share your campus. Zero fees,
            real-time chat, and pickup between classes.
          </p>
          {showPicker && (
            <FindYourCampus
              campuses={campuses}
              chosen={chosen}
              onChoose={setChosen}
              className="mt-8 max-w-xl"
            />
          )}
          <AuthButtons size="lg" className="mt-8" />
          <ul className="mt-8 flex flex-wrap gap-x-6 gap-y-2 text-sm font-medium text-slate-700">
            <li className="flex items-center gap-2">
              <WalletIcon size={18} className="text-brand-700" /> No hidden fees
            </li>
            <li className="flex items-center gap-2">
              <PinIcon size={18} className="text-brand-700" /> On-campus pickup
            </li>
            <li className="flex items-center gap-2">
              <BoltIcon size={18} className="text-brand-700" /> List in under 60 s
            </li>
          </ul>
        </div>

        <div aria-hidden="true" className="relative mx-auto w-full max-w-md lg:max-w-none">
          <div className="rounded-3xl border border-slate-200 bg-white p-4 shadow-lift sm:p-5 sm:pb-10">
            <div className="flex items-center gap-2 rounded-full bg-slate-100 px-4 py-2.5 text-sm text-slate-600">
              <FilterIcon size={16} /> calculus textbook
            </div>
            <ul className="mt-4 space-y-3">
              {PREVIEW.map((item) => (
                <li
                  key={item.name}
                  className="flex items-center gap-4 rounded-2xl border border-slate-100 bg-slate-50/60 p-3"
                >
                  <span className="flex h-14 w-14 shrink-0 items-center justify-center rounded-xl bg-brand-100 text-brand-800">
                    <CategoryIcon category={item.category} size={26} />
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-semibold text-slate-900">{item.name}</span>
                    <span className="text-sm text-slate-600">{item.tile}</span>
                  </span>
                  <span className="rounded-full bg-brand-700 px-3 py-1 text-sm font-bold text-white">
                    {item.price}
                  </span>
                </li>
              ))}
            </ul>
          </div>
          <div className="absolute -right-2 -bottom-10 hidden max-w-[15rem] rounded-2xl border border-slate-200 bg-white p-3 shadow-lift sm:block lg:-right-3">
            <p className="flex items-center gap-2 text-xs font-semibold text-brand-700">
              <ChatIcon size={14} /> New message
            </p>
            <p className="mt-1 text-sm text-slate-800">
              Is it still available? I can meet at the library at 3.
            </p>
          </div>
        </div>
      </div>
    </section>
  );
}

/* ----------------------------------------------------------------------------- features */

const FEATURES = [
  {
    icon: ShieldIcon,
    title: 'Verified university e-mail',
    text: 'Every account is confirmed with a code sent to a university address, so you trade with real students.',
  },
  {
    icon: WalletIcon,
    title: 'Zero fees',
    text: 'No listing fees, no commissions, no hidden fees. The price you agree on is the price you pay.',
  },
  {
    icon: PinIcon,
    title: 'On-campus pickup',
    text: 'Meet at a spot you both know: the library, the dining hall, your dorm lobby.',
  },
  {
    icon: ChatIcon,
    title: 'Real-time chat',
    text: 'Ask questions, confirm the condition and arrange pickup without sharing your number.',
  },
  {
    icon: BoltIcon,
    title: 'List in under 60 seconds',
    text: 'A photo, a price, a category and a line of description. That is all it takes.',
  },
  {
    icon: FilterIcon,
    title: 'Fuzzy search with filters',
    text: 'Typos welcome: search finds what you mean, then narrow it down by category and price.',
  },
];

export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-heading" className="bg-white py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="features-heading"
          eyebrow="Features"
          title="Built for the way students trade"
          intro="Everything you need to buy and sell safely with people on your own campus, and nothing you don't."
        />
        <ul className="mt-12 grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-2xl border border-slate-200 bg-slate-50/50 p-6">
              <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-brand-700 text-white">
                <Icon size={22} />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 text-slate-600">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/* ----------------------------------------------------------------------------- categories */

const CATEGORY_EXAMPLES: Record<Category, string> = {
  LIFESTYLE: 'Mini fridges, lamps, storage bins, bedding and decor for your room.',
  BOOKS: 'Course textbooks, lab manuals, study guides and novels.',
  ELECTRONICS: 'Laptops, calculators, headphones, monitors and chargers.',
  EVENTS: 'Game and concert tickets, sports gear and club events.',
  CLOTHING: 'Jackets, game-day gear, shoes and formal wear.',
  SERVICES: 'Tutoring, moving help, haircuts, photography and more.',
  OTHER: 'Bikes, plants, instruments and everything in between.',
};

/** Anchor id of a category on the landing page (spec §2: /#browse-{category lowercase}). */
export function browseAnchor(category: Category): string {
  return `browse-${category.toLowerCase()}`;
}

export function CategoriesSection() {
  const loggedIn = useIsLoggedIn();
  return (
    <section id="categories" aria-labelledby="categories-heading" className="bg-slate-50 py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="categories-heading"
          eyebrow="Categories"
          title="Whatever campus life needs"
          intro="Seven categories cover most of what students buy and sell. Jump to one:"
        />
        <ul className="mt-8 flex flex-wrap justify-center gap-2">
          {CATEGORY_TILES.map((tile) => (
            <li key={tile.category}>
              <a
                href={`/#${browseAnchor(tile.category)}`}
                className="inline-flex items-center gap-2 rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-xs hover:border-brand-400 hover:text-brand-800"
              >
                <CategoryIcon category={tile.category} size={16} className="text-brand-700" />
                {tile.title}
              </a>
            </li>
          ))}
        </ul>
        <ul className="mt-10 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {CATEGORY_TILES.map((tile) => {
            const target = `/cat_listing?categories=${tile.category}`;
            return (
              <li
                key={tile.category}
                id={browseAnchor(tile.category)}
                className="flex flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-card sm:p-6 target:border-brand-500 target:ring-4 target:ring-brand-100"
              >
                <div className="flex items-center gap-3">
                  <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                    <CategoryIcon category={tile.category} size={22} />
                  </span>
                  <h3 className="text-lg font-semibold text-slate-900">{tile.title}</h3>
                </div>
                <p className="mt-3 flex-1 text-slate-600">{CATEGORY_EXAMPLES[tile.category]}</p>
                <Link
                  to={loggedIn ? target : '/login'}
                  state={loggedIn ? undefined : { from: target }}
                  className="mt-4 inline-flex items-center gap-1.5 self-start rounded-lg text-sm font-semibold text-brand-700 underline-offset-4 hover:underline"
                >
                  Browse {tile.title} <ArrowRightIcon size={16} />
                </Link>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

/* ----------------------------------------------------------------------------- how it works */

const STEPS = [
  {
    title: 'List it',
    text: 'Snap a photo, set your price and pick a category. Your listing is live in under a minute.',
  },
  {
    title: 'Chat and decide',
    text: 'Buyers message you in real time. Answer questions, confirm the condition, agree on a time and place.',
  },
  {
    title: 'Meet and pay in person',
    text: 'Meet somewhere public on campus, check the item, then pay the seller directly, in cash or with your usual payment app. Campus Market does not handle payments.',
  },
];

export function HowItWorksSection() {
  return (
    <section id="how-it-works" aria-labelledby="how-heading" className="bg-white py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="how-heading" eyebrow="How it works" title="Three steps from listed to sold" />
        <ol className="mt-12 grid grid-cols-1 gap-6 md:grid-cols-3">
          {STEPS.map((step, i) => (
            <li key={step.title} className="relative rounded-2xl border border-slate-200 p-6">
              <span className="flex h-10 w-10 items-center justify-center rounded-full bg-accent-400 text-lg font-extrabold text-brand-950">
                {i + 1}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-2 text-slate-600">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

/* ----------------------------------------------------------------------------- about */

const ABOUT_FALLBACK =
  'Campus Market is a marketplace for students, by design: accounts are tied to university e-mail addresses, there are no fees, and every exchange happens in person on campus.';

/** About Us: the campus's configured `about` text from GET /public/campus (never invented people). */
export function AboutSection() {
  const campus = useCampusInfo();
  const about = campus.data?.about?.trim() || ABOUT_FALLBACK;
  const name = campus.data ? campusLabel(campus.data) : null;
  return (
    <section id="about" aria-labelledby="about-heading" className="bg-slate-50 py-16 sm:py-24">
      <div className="mx-auto grid max-w-7xl grid-cols-1 items-center gap-10 px-4 sm:px-6 lg:grid-cols-[1fr_1.2fr] lg:px-8">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">About Us</p>
          <h2
            id="about-heading"
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            {name ? `Campus Market at ${name}` : 'About Campus Market'}
          </h2>
        </div>
        <div className="rounded-3xl border border-slate-200 bg-white p-6 shadow-card sm:p-8">
          {about.split(/\n{2,}/).map((paragraph, i) => (
            <p key={i} className="text-lg leading-relaxed whitespace-pre-line text-slate-700 [&+&]:mt-4">
              {paragraph}
            </p>
          ))}
        </div>
      </div>
    </section>
  );
}

/* ----------------------------------------------------------------------------- call to action */

export function CallToActionSection() {
  return (
    <section
      id="get-started"
      aria-labelledby="cta-heading"
      className="bg-white px-4 py-16 sm:px-6 sm:py-24 lg:px-8"
    >
      <div className="relative mx-auto max-w-5xl overflow-hidden rounded-3xl bg-brand-800 px-6 py-12 text-center text-white sm:px-12 sm:py-16">
        <div
          aria-hidden="true"
          className="absolute -top-24 -left-24 h-72 w-72 rounded-full bg-brand-600/40"
        />
        <div
          aria-hidden="true"
          className="absolute -right-20 -bottom-28 h-72 w-72 rounded-full bg-brand-950/40"
        />
        <div className="relative">
          <h2 id="cta-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            Your next deal is a short walk away.
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-lg text-brand-100">
            Join with your university e-mail, post your first listing in under a minute, and meet buyers on
            campus.
          </p>
          <AuthButtons size="lg" tone="dark" className="mt-8 justify-center" />
        </div>
      </div>
    </section>
  );
}
