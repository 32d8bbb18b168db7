import * as z from '../zod.js';
import { readSkill } from '../interop/skills.js';
import { defineTool } from './tool.js';

/**
 * Loads a skill the prompt lists (issue 24): its instructions, or one of its files. Free, like
 * read_file: it only reads, and only inside the skill's own folder (never a credentials file).
 */
export const loadSkill = defineTool({
  name: 'load_skill',
  description: 'Load a skill from the list of skills in your instructions: without "file", its full instructions and the list of its files; with "file" (relative to the skill\'s folder), that file.',
  input: z.object({ name: z.string().check(z.minLength(1), z.maxLength(64)), file: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))) }),
  async execute({ name, file }, ctx) {
    const read = await readSkill(ctx.skills ?? { skills: [], shadowed: [], problems: [] }, name, file);
    return read.ok ? { content: read.text } : { content: read.error, isError: true };
  },
});
