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

/** User + system CPU ticks of a /proc/<pid>/stat line (fields 14 and 15, after the command's closing parenthesis). */
function cpuTicks(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU seconds the process has used (user + system), from /proc: per request, a figure the machine's other load barely moves. */
export function cpuSeconds(pid: number): number {
  try {
    return cpuTicks(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')) / 100;
  } catch {
    return NaN;
  }
}

/** CPU seconds used so far by every PostgreSQL process on this machine (0 elsewhere). */
export function databaseCpuSeconds(): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith('postgres')) continue;
      ticks += cpuTicks(stat);
    } catch {
      // The process ended while being read.
    }
  }
  return ticks / 100;
}
