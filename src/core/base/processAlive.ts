// Whether a process still exists, for the sweeps of what dead processes left behind (copies, cgroups).

/** True while `pid` exists, also when it belongs to another user (EPERM: it exists, we may not signal it). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
