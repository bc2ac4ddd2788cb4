// @oooi/rig — the real-cluster rig (see README.md). Filled in by the rig issue.
export {};
