import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { Logo } from '../../ui/Logo';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { LANDING_SECTIONS, LandingHeader } from './LandingHeader';
import {
  AboutSection,
  CallToActionSection,
  CategoriesSection,
  FeaturesSection,
  HeroSection,
  HowItWorksSection,
} from './sections';
import { useTimeBasis } from '../../ui/timeBasis';

/** / (spec §2): home, features, categories, how it works, About Us, call to action. */
export default function LandingPage() {
  const basis = useTimeBasis();
  useDocumentTitle(null);
  const { hash } = useLocation();

  // The page is lazy-loaded, so the browser could not scroll to /#anchor on first load: do it now.
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);

  return (
    <div className="flex min-h-dvh flex-col bg-white">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <LandingHeader />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <HeroSection />
        <FeaturesSection />
        <CategoriesSection />
        <HowItWorksSection />
        <AboutSection />
        <CallToActionSection />
      </main>
      <footer className="border-t border-slate-200 bg-slate-50">
        <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
          <Logo />
          <nav aria-label="Footer">
            <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm font-medium text-slate-700">
              {LANDING_SECTIONS.map((s) => (
                <li key={s.id}>
                  <a href={`#${s.id}`} className="hover:text-brand-800 hover:underline">
                    {s.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <p className="text-sm text-slate-600">© {new Date(basis.now).getFullYear()} Campus Market</p>
        </div>
      </footer>
    </div>
  );
}
