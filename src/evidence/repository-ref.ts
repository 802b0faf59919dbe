/** A source repository as a package declares it, normalised with hosted-git-info. */
import { z } from 'zod';

export const RepositoryRefSchema = z.object({
  /** The value as the package declared it (string or `url` of the object form). */
  raw: z.string(),
  /** Host kind from hosted-git-info (`github`, `gitlab`, `bitbucket`, …) or null. */
  host: z.string().nullable(),
  /** Browse URL (https) when the host is known, else null. */
  url: z.string().nullable(),
  /** `owner/repo` for known hosts. */
  slug: z.string().nullable(),
  directory: z.string().nullable(),
});
export type RepositoryRef = z.infer<typeof RepositoryRefSchema>;
