import type { DemoListing } from './demo-listings.js';

/**
 * The demo books: most carry the course they are for and a real ISBN-13, so a newcomer sees the
 * Books category's "Browse by course" chips, a course page with several books, and the course card
 * above a search for "cse 232". The seed deals listings round the open campuses in order (seed.ts
 * `share`): with two campuses the even places go to the first (MSU: CSE232 and MTH132 twice each),
 * the odd ones to the second (UW's own courses), so each campus has courses of its own.
 */
export const DEMO_BOOKS: DemoListing[] = [
  {
    name: 'Calculus: Early Transcendentals (8th ed.)',
    category: 'BOOKS',
    price: '45',
    description:
      'Stewart, hardcover. Some highlighting in chapters 2–4, otherwise clean. Used for MTH 132/133.',
    courseCode: 'MTH132',
    isbn: '9781285741550',
  },
  {
    name: 'Organic Chemistry textbook + solutions manual',
    category: 'BOOKS',
    price: '60',
    description: 'Klein, 3rd edition, with the study guide and solutions manual. No writing inside.',
    courseCode: 'CHEM237',
    isbn: '9781119316152',
  },
  {
    name: 'Data structures in Java',
    category: 'BOOKS',
    price: '30',
    description: 'Goodrich & Tamassia, 6th edition. Great for CSE 232 and interviews.',
    courseCode: 'CSE232',
    isbn: '9781118771334',
  },
  {
    name: 'Microeconomics principles',
    category: 'BOOKS',
    price: '25',
    description: 'Mankiw, 9th edition. Access code already used.',
    courseCode: 'ECON200',
    isbn: '9780357133484',
  },
  {
    name: 'Intro to Psychology',
    category: 'BOOKS',
    price: '18',
    description: 'Paperback, like new. Required for PSY 101 this year.',
    courseCode: 'PSY101',
    isbn: '9781938168352',
  },
  {
    name: 'Building Java Programs (5th ed.)',
    category: 'BOOKS',
    price: '40',
    description: 'Reges & Stepp. The CSE 142 book; a few sticky notes, no writing.',
    courseCode: 'CSE142',
    isbn: '9780135471944',
  },
  {
    name: 'C++ Primer (5th ed.)',
    category: 'BOOKS',
    price: '28',
    description: 'Lippman, Lajoie & Moo. The C++ reference CSE 232 points to; spine a little creased.',
    courseCode: 'CSE232',
    isbn: '9780321714114',
  },
  {
    name: 'Spanish 201 workbook',
    category: 'BOOKS',
    price: '10',
    description: 'Unused workbook, the one the department switched to this fall.',
    courseCode: 'SPAN201',
  },
  {
    name: "Thomas' Calculus: Early Transcendentals",
    category: 'BOOKS',
    price: '35',
    description: '14th edition, paperback. Good second book for MTH 132 practice problems.',
    courseCode: 'MTH132',
    isbn: '9780134439020',
  },
  {
    name: 'Linear Algebra and Its Applications',
    category: 'BOOKS',
    price: '38',
    description: 'Lay, 5th edition. Used one quarter for MATH 208; clean pages.',
    courseCode: 'MATH208',
    isbn: '9780321982384',
  },
  {
    name: 'Harry Potter box set',
    category: 'BOOKS',
    price: '35',
    description: 'All seven books, paperback, box a little worn. Perfect for winter break.',
    isbn: '9780545162074',
  },
  {
    name: 'GRE prep book bundle',
    category: 'BOOKS',
    price: '20',
    description: 'Manhattan Prep 5 lb book and the official guide. A few practice pages done in pencil.',
  },
  {
    name: 'Linear algebra lecture notes',
    category: 'BOOKS',
    price: '8',
    description: 'Printed and bound notes with worked examples for MTH 309.',
    courseCode: 'MTH309',
    sold: true,
  },
];
