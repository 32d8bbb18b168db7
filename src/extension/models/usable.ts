/** The judgement lives in the core, so `pepe doctor` and the extension say the same thing. */
export { agentModelProblem, modelProblem } from '../../core/models/usable.js';
