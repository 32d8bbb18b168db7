/** One line of `pepe doctor`'s report (and of the extension's health view): a leaf, so every part of the core can produce findings. */
export interface DoctorFinding {
  /** `info`: said for the person to know (what a confined command can see); never unhealthy. */
  level: 'problem' | 'warning' | 'info';
  area: 'config' | 'slot' | 'plugin' | 'route' | 'model' | 'core' | 'mcp' | 'interop';
  message: string;
}
