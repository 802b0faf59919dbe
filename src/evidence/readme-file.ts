/**
 * The shapes every source's README evidence shares: a README's text is its first part, and past
 * that cut `tailHeadings` holds the headings of the rest and `tailCodeBlocks` counts its code
 * blocks, read as the text streamed past (util/readme-tail.ts; both absent when the text was not
 * cut, and in evidence saved before they were recorded).
 */
import { z } from 'zod';

/** The fields a README cut short adds (spread into each source's README object). */
export const README_TAIL_FIELDS = {
  tailHeadings: z.array(z.string()).optional(),
  tailCodeBlocks: z.number().int().nonnegative().optional(),
};

/** A README file read from a tree (a repository's default branch, a package's tarball). */
export const ReadmeFileSchema = z.object({
  path: z.string(),
  size: z.number().int().nonnegative(),
  text: z.string(),
  truncated: z.boolean(),
  ...README_TAIL_FIELDS,
});

/** A licence file at a tree's root, with the SPDX id its text matches (null when unrecognised or unread) and the further licences the same file holds (`others`, only when there are any). */
export const LicenseFileSchema = z.object({ path: z.string(), spdx: z.string().nullable(), others: z.array(z.string()).optional() });
