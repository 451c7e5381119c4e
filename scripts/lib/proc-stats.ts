// What a benchmark reads of a server process from /proc (Linux): its peak memory and the CPU it has used.
import fs from 'node:fs';

/** A memory figure of /proc/<pid>/status in MB (VmRSS now, VmHWM its peak), or null once the process is gone. */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Resident memory of a process in MB, or null once it is gone. */
export const rssMb = (pid: number) => statusMb(pid, 'VmRSS');

/** Peak resident set size in MB, or null once the process is gone. */
export const peakRssMb = (pid: number) => statusMb(pid, 'VmHWM');

/** CPU seconds the process has used (user + system), from /proc: per request, a figure the machine's other load barely moves. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}
