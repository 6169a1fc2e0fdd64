// Course pages found where students look (features.md §B "Textbooks"): the Books category shows
// "Browse by course" chips of the campus's course codes, and a search for a course code ("cse 232"
// style) shows a card to its course page above the results. On a phone (390 px) first, where most
// students look; axe and screenshots at 390 and 1280 px. Another campus never sees these courses.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { shoot } from '../support/shots.js';
import { CAMPUS_DOMAINS, registeredStudent } from '../support/students.js';

test.describe.configure({ timeout: 300_000 });

const PHONE = { width: 390, height: 844 };

/**
 * Course letters no other spec (or earlier run) uses: the run's time in base 36, digits spelled
 * as letters, so this spec's courses are its own in a database the specs share.
 */
const LETTERS = `Q${Date.now()
  .toString(36)
  .slice(-6)
  .toUpperCase()
  .replace(/\d/g, (d) => 'ABCDEFGHIJ'[Number(d)]!)}`;
const MAIN = `${LETTERS}232`;
const SECOND = `${LETTERS}101`;

async function studentPage(browser: Browser, first: string, last: string, domain?: string) {
  const ctx = await browser.newContext({ viewport: PHONE });
  const page = await ctx.newPage();
  await registeredStudent(page, first, last, domain);
  return { ctx, page };
}

/** Posts a book through the API as the page's student. */
async function postBook(page: Page, name: string, price: string, courseCode: string): Promise<void> {
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  const res = await page.request.post('/listing', {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      name,
      category: 'BOOKS',
      price,
      description: 'Clean copy, no highlighting. Pick up by the library.',
      courseCode,
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

test('a student finds a course page from the Books category and from a search', async ({ browser }) => {
  const seller = await studentPage(browser, 'Ines', 'Marchetti');
  await postBook(seller.page, `Algorithms in C++ for ${MAIN}`, '32', MAIN.toLowerCase());
  await postBook(seller.page, `${MAIN} lab reader`, '12', MAIN);
  await postBook(seller.page, `Statistics primer for ${SECOND}`, '20', SECOND);

  const { page } = await studentPage(browser, 'Kofi', 'Asante');

  // Books category: a chip per course with its count; the most-listed course comes first of ours.
  await page.goto('/cat_listing?categories=BOOKS');
  const chips = page.getByRole('navigation', { name: 'Browse by course' });
  await expect(chips).toBeVisible();
  const mainChip = chips.getByRole('link', { name: `${MAIN} 2 books` });
  await expect(mainChip).toBeVisible();
  await expect(chips.getByRole('link', { name: `${SECOND} 1 book` })).toBeVisible();
  const names = await chips.getByRole('link').allTextContents();
  expect(names.findIndex((n) => n.startsWith(MAIN))).toBeLessThan(
    names.findIndex((n) => n.startsWith(SECOND)),
  );
  // The chips stay one row on a phone: no chip wraps below the first.
  const tops = await chips
    .getByRole('listitem')
    .evaluateAll((items) => items.map((li) => Math.round(li.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);
  await expectAccessible(page, 'course-chips');
  await shoot(page, 'course-chips');

  await mainChip.click();
  await expect(page).toHaveURL(new RegExp(`/course/${MAIN}$`));
  await expect(page.getByRole('heading', { name: `Books for ${MAIN}`, level: 1 })).toBeVisible();
  // Cheapest first on the course page.
  await expect
    .poll(() =>
      page
        .getByRole('list', { name: `Books for ${MAIN}` })
        .getByRole('heading')
        .allTextContents(),
    )
    .toEqual([`${MAIN} lab reader`, `Algorithms in C++ for ${MAIN}`]);

  // A search in the student's own spelling ("qabc 232") leads to the same course page.
  const spaced = `${LETTERS.toLowerCase()} 232`;
  await page.goto(`/all_listings?${new URLSearchParams({ query: spaced })}`);
  const card = page.getByRole('link', { name: new RegExp(`^Course page: ${MAIN} — 2 books`) });
  await expect(card).toBeVisible();
  // The card sits above the results.
  const cardBox = await card.boundingBox();
  const resultsBox = await page.getByRole('list', { name: `Search results for ${spaced}` }).boundingBox();
  expect(cardBox && resultsBox && cardBox.y < resultsBox.y).toBe(true);
  await expectAccessible(page, 'course-search-card');
  await shoot(page, 'course-search-card');
  await card.click();
  await expect(page).toHaveURL(new RegExp(`/course/${MAIN}$`));

  // Written together, in capitals, it finds the course too; a search that names no course has no card.
  await page.goto(`/all_listings?${new URLSearchParams({ query: MAIN })}`);
  await expect(page.getByRole('link', { name: new RegExp(`^Course page: ${MAIN}`) })).toBeVisible();
  await page.goto(`/all_listings?${new URLSearchParams({ query: 'lab reader' })}`);
  await expect(page.getByRole('list', { name: 'Search results for lab reader' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Course page:/ })).toHaveCount(0);

  await seller.ctx.close();
});

test("a student of another campus sees none of this campus's courses", async ({ browser }) => {
  const seller = await studentPage(browser, 'Ruth', 'Okafor');
  const own = `${LETTERS}340`;
  await postBook(seller.page, `Compilers for ${own}`, '30', own);

  const { page } = await studentPage(browser, 'Tariq', 'Haddad', CAMPUS_DOMAINS.uw);
  await page.goto('/cat_listing?categories=BOOKS');
  await expect(page.getByRole('heading', { name: 'Books', level: 1 })).toBeVisible();
  // Whatever this campus lists, none of the other campus's courses.
  await expect(page.getByRole('link', { name: new RegExp(LETTERS) })).toHaveCount(0);
  await page.goto(`/all_listings?${new URLSearchParams({ query: own })}`);
  await expect(page.getByRole('list', { name: `Search results for ${own}` })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Course page:/ })).toHaveCount(0);

  await seller.ctx.close();
});
