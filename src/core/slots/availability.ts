import type { PluginInfo } from '../plugins/registry.js';
import { SLOT_FUNCTION } from './contracts.js';
import type { SlotName } from './names.js';

export type Availability = { ok: true; plugin: PluginInfo } | { ok: false; reason: string };

/**
 * Can the configured plugin really answer this slot? (spec 3.4: removed, renamed, failed to load,
 * or claims another slot → "using the default instead"). `slot list`, `doctor` and every call use this.
 */
export function availability(slot: SlotName, name: string, plugins: readonly PluginInfo[]): Availability {
  const candidates = plugins.filter((p) => p.name === name);
  const loaded = candidates.find((p) => !p.error);
  if (!loaded) {
    const broken = candidates[0];
    if (broken) return { ok: false, reason: `plugin "${name}" cannot be used: ${broken.error}` };
    const failed = plugins.filter((p) => p.error && !p.name);
    const hint = failed.length ? ` (${failed.length} plugin file(s) failed to load; run pepe doctor)` : '';
    return { ok: false, reason: `plugin "${name}" is not installed${hint}` };
  }
  if (loaded.slot !== slot) return { ok: false, reason: `plugin "${name}" claims slot "${loaded.slot}", not "${slot}"` };
  const fn = SLOT_FUNCTION[slot];
  if (!loaded.functions.includes(fn)) return { ok: false, reason: `plugin "${name}" does not export ${fn}()` };
  return { ok: true, plugin: loaded };
}

/** The installed plugins that can occupy `slot`, and why each other one cannot. */
export function candidatesFor(slot: SlotName, plugins: readonly PluginInfo[]): { eligible: PluginInfo[]; others: { plugin: PluginInfo; why: string }[] } {
  const eligible: PluginInfo[] = [];
  const others: { plugin: PluginInfo; why: string }[] = [];
  for (const p of plugins) {
    if (p.error || !p.name) {
      others.push({ plugin: p, why: p.error ?? 'did not load' });
      continue;
    }
    const a = availability(slot, p.name, plugins);
    if (a.ok) eligible.push(p);
    else others.push({ plugin: p, why: a.reason });
  }
  return { eligible, others };
}
