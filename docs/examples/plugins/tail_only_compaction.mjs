// A compaction strategy with no model call: once a conversation has more than 12 non-system
// messages, keep the system messages and the last 12 others, with a one-line marker in place
// of the dropped middle. Cheap and instant, at the cost of forgetting the middle outright.
const KEEP_LAST = 12;

export function name() {
  return 'tail_only_compaction';
}

export function slot() {
  return 'compaction';
}

export function compact(messages, _model, _agent, _sessionKey) {
  const system = messages.filter((m) => m.role === 'system');
  const rest = messages.filter((m) => m.role !== 'system');
  if (rest.length <= KEEP_LAST) return messages;
  const marker = {
    role: 'user',
    content: '<system-reminder>\nEarlier turns were dropped to fit the context window (tail_only_compaction).\n</system-reminder>',
  };
  return [...system, marker, ...rest.slice(-KEEP_LAST)];
}
