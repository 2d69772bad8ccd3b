/**
 * The cover shown for a book, series or library that has no image to make a thumbnail from (a file
 * that could not be analysed, a reflowable EPUB without a cover, an empty series): a fixed neutral
 * SVG in the 2:3 shape of a book cover, so grids keep their layout.
 */
export const PLACEHOLDER_MEDIA_TYPE = 'image/svg+xml';
export const PLACEHOLDER_ETAG = '"longbox-placeholder-cover-v1"';

export const PLACEHOLDER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600" viewBox="0 0 400 600">
<rect width="400" height="600" fill="#d9d6d0"/>
<rect x="24" y="24" width="352" height="552" fill="none" stroke="#b3aea5" stroke-width="4"/>
<path d="M150 230h100v140H150z M170 255h60 M170 280h60 M170 305h40" fill="none" stroke="#8f897f" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
`;
