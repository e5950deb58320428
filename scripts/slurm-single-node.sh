#!/usr/bin/env bash
# Starts a one-node Slurm cluster on this machine, by hand (no systemd, no writable
# cgroups): munged, slurmctld and slurmd with process tracking through /proc and no task
# plugin. For trying scripts/render-sharded-slurm.sh; not for production.
#   bash scripts/slurm-single-node.sh          # start (as root)
#   bash scripts/slurm-single-node.sh stop     # stop
# Needs Debian's slurm-wlm (slurmctld, slurmd, munge).
set -euo pipefail

if [ "${1:-}" = stop ]; then
    pkill -x slurmd || true
    pkill -x slurmctld || true
    pkill -x munged || true
    exit 0
fi

host=$(hostname -s)
cpus=$(nproc)
memory=$(awk '/MemTotal/ { print int($2 / 1024) - 512 }' /proc/meminfo)

# munge: a key, its folders, the daemon.
mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge
[ -s /etc/munge/munge.key ] || dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge
chmod 0700 /etc/munge && chmod 0400 /etc/munge/munge.key
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged

# Slurm: one node, one partition.
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=mosaic
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
pgrep -x slurmctld >/dev/null || /usr/sbin/slurmctld
pgrep -x slurmd >/dev/null || /usr/sbin/slurmd
for _ in $(seq 1 30); do
    sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mixed|alloc' && { sinfo; exit 0; }
    sleep 1
done
echo "slurm did not come up; see /var/log/slurm/*.log" >&2
exit 1
