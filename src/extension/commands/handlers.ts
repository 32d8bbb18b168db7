import { agentAdd, agentRemove, agentSwitch } from './agent-commands.js';
import { agentEdit } from './agent-edit.js';
import { coreAttach } from './core-attach.js';
import { chatNewSession, chatOpen, chatStop } from './chat-commands.js';
import { chatAddSelection, chatAddTerminalSelection } from '../chat/add-context-commands.js';
import { checkpointCompare, checkpointRestore } from './checkpoint-commands.js';
import { editAccept, editReject } from './edit-commands.js';
import { configOpen, modelAdd, modelTest } from './model-commands.js';
import type { CommandHandler } from './command-context.js';
import { routeAdd, routeRemove } from './route-commands.js';
import { slotClear, slotList, slotSet, slotTest } from './slot-commands.js';
import { apiKeySet, approvalsShow, coreCheck, doctor, pluginInstall } from './tool-commands.js';

/** The handlers behind the command ids; loaded on the first command, not at activation. */
export const HANDLERS: Record<string, CommandHandler> = {
  'pepe.slot.set': slotSet,
  'pepe.slot.clear': slotClear,
  'pepe.slot.list': slotList,
  'pepe.slot.test': slotTest,
  'pepe.doctor': doctor,
  'pepe.route.add': routeAdd,
  'pepe.route.remove': routeRemove,
  'pepe.agent.add': agentAdd,
  'pepe.agent.remove': agentRemove,
  'pepe.agent.switch': agentSwitch,
  'pepe.agent.edit': agentEdit,
  'pepe.chat.open': chatOpen,
  'pepe.chat.newSession': chatNewSession,
  'pepe.chat.stop': chatStop,
  'pepe.chat.addSelection': chatAddSelection,
  'pepe.chat.addTerminalSelection': chatAddTerminalSelection,
  'pepe.model.add': modelAdd,
  'pepe.model.test': modelTest,
  'pepe.config.open': configOpen,
  'pepe.plugin.install': pluginInstall,
  'pepe.apiKey.set': apiKeySet,
  'pepe.core.check': coreCheck,
  'pepe.core.attach': coreAttach,
  'pepe.approvals.show': approvalsShow,
  'pepe.edit.accept': editAccept,
  'pepe.edit.reject': editReject,
  'pepe.checkpoints.restore': checkpointRestore,
  'pepe.checkpoints.compare': checkpointCompare,
};
