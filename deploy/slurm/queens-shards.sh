#!/bin/bash
# Count N = 22 as 64 slices in a Slurm array: see docs/distributed.md.
#   sbatch deploy/slurm/queens-shards.sh
#   chesspuzzles queens merge results/q22-*.json
# A failed slice runs again alone: sbatch --array=17 deploy/slurm/queens-shards.sh
#SBATCH --job-name=queens-22
#SBATCH --array=0-63
#SBATCH --cpus-per-task=32
#SBATCH --time=2-00:00:00
#SBATCH --output=logs/%A_%a.log
chesspuzzles queens count 22 --shard "${SLURM_ARRAY_TASK_ID}/64" --workers "$SLURM_CPUS_PER_TASK" \
  > "results/q22-${SLURM_ARRAY_TASK_ID}.json"
