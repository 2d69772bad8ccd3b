// The benchmark comic library (bench/scan.bench.mjs, bench/ingest.bench.mjs): 2,000 CBZs in 100 series
// folders of 20, each 50 small real JPEG pages (200×300, made with sharp, 40 distinct) and a ComicInfo.xml.
import { zipSync } from 'fflate';
import sharp from 'sharp';

export const BOOKS_PER_SERIES = 20;
export const PAGES_PER_BOOK = 50;
export const DISTINCT_PAGES = 40;

/** A small comic page: panels, a balloon, a caption; JPEG q70, a few KB. */
export async function page(n) {
  const hue = (n * 37) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="300">
    <rect width="200" height="300" fill="#fbf8f0"/>
    <rect x="8" y="8" width="184" height="130" fill="hsl(${hue},55%,70%)" stroke="#111" stroke-width="3"/>
    <rect x="8" y="146" width="88" height="146" fill="hsl(${(hue + 120) % 360},45%,60%)" stroke="#111" stroke-width="3"/>
    <rect x="104" y="146" width="88" height="146" fill="hsl(${(hue + 240) % 360},45%,65%)" stroke="#111" stroke-width="3"/>
    <circle cx="${40 + (n % 7) * 18}" cy="70" r="28" fill="#fff8d0" stroke="#222" stroke-width="2"/>
    <ellipse cx="130" cy="40" rx="50" ry="20" fill="#fff" stroke="#111" stroke-width="2"/>
    <text x="95" y="45" font-family="sans-serif" font-size="11">PAGE ${n}!</text>
    <path d="M20 280 Q60 ${180 + (n % 9) * 10} 90 270" stroke="#111" stroke-width="2" fill="none"/>
  </svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).jpeg({ quality: 70 }).toBuffer());
}

/** The distinct pages every book draws from. */
export function distinctPages() {
  return Promise.all(Array.from({ length: DISTINCT_PAGES }, (_, n) => page(n + 1)));
}

function comicInfo(seriesTitle, number, year) {
  return new TextEncoder().encode(`<?xml version="1.0" encoding="utf-8"?>
<ComicInfo>
  <Series>${seriesTitle}</Series>
  <Number>${number}</Number>
  <Title>${seriesTitle} issue ${number}</Title>
  <Summary>Issue ${number} of ${seriesTitle}, generated for the scan benchmark.</Summary>
  <Writer>Writer ${number % 7}</Writer>
  <Publisher>Bench Comics</Publisher>
  <Year>${year}</Year>
  <Genre>Action, Genre ${number % 5}</Genre>
  <Tags>bench, tag ${number % 3}</Tags>
  <PageCount>${PAGES_PER_BOOK}</PageCount>
</ComicInfo>
`);
}

/** Book i of the library: its key inside the library and its stored-ZIP bytes (pages rotate per book). */
export function book(i, pages) {
  const s = Math.floor(i / BOOKS_PER_SERIES) + 1;
  const number = (i % BOOKS_PER_SERIES) + 1;
  const seriesTitle = `Bench Series ${String(s).padStart(3, '0')}`;
  const files = { 'ComicInfo.xml': [comicInfo(seriesTitle, number, 1990 + (s % 30)), { level: 6 }] };
  for (let p = 0; p < PAGES_PER_BOOK; p++) {
    files[`${String(p + 1).padStart(3, '0')}.jpg`] = [pages[(i * 7 + p) % pages.length], { level: 0 }];
  }
  const key = `${seriesTitle}/${seriesTitle} #${String(number).padStart(2, '0')}.cbz`;
  return { key, bytes: zipSync(files) };
}
