import type { Decision, Prompter } from '../permissions/approval.js';

/**
 * A prompter that shows one question at a time: calls of one model message may run side by side,
 * but a person answers them one after the other, each seeing only its own call. A question given
 * up (its turn cancelled, or unanswered past the prompt timeout) frees the line for the next one.
 */
export function onePromptAtATime(prompter: Prompter): Prompter {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    get interactive() {
      return prompter.interactive;
    },
    ask(request, signal) {
      const next = queue.then(() => {
        const asked = prompter.ask(request, signal);
        if (!signal) return asked;
        const givenUp = new Promise<never>((_, reject) => {
          const stop = () => reject(signal.reason instanceof Error ? signal.reason : new Error('the question was given up'));
          if (signal.aborted) stop();
          else signal.addEventListener('abort', stop, { once: true });
        });
        givenUp.catch(() => undefined);
        return Promise.race([asked, givenUp]);
      });
      queue = next.catch(() => undefined);
      return next as Promise<Decision>;
    },
  };
}
