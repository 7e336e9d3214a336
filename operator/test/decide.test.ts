import { expect } from 'chai';
import type { V1Deployment } from '@kubernetes/client-node';
import type { DocxImportJob } from '../src/api/docx-import-job.js';
import { decide as decideWith, withApplyFailure } from '../src/controller/decide.js';
import { findCondition } from '../src/controller/conditions.js';
import { ANNOTATION_TEMPLATE_HASH } from '../src/controller/worker-deployment.js';
import { aJob, anOwnedDeployment, aPolicy, at, depth, failedReading } from './support/factories.js';

/** The decision under the test policy (the worker template is the factory's, always allowed). */
const decide = (job: DocxImportJob, observed: V1Deployment | undefined, reading: ReturnType<typeof depth>, now: Date) =>
  decideWith(job, observed, reading, { now, policy: aPolicy() });

const T0 = at('2025-03-01T10:00:00.000Z');
const plus = (s: number): Date => new Date(T0.getTime() + s * 1000);

function conditionOf(
  status: { conditions?: Array<{ type: string; status: string; reason: string }> },
  type: string,
): string {
  const c = findCondition(status.conditions as never, type);
  return c ? `${c.status}/${c.reason}` : 'absent';
}

/** Feeds a decision back as the world would look after the controller applied it. */
function applied(
  job: DocxImportJob,
  observed: V1Deployment | undefined,
  decision: ReturnType<typeof decide>,
): { job: DocxImportJob; observed: V1Deployment | undefined } {
  return { job: { ...job, status: decision.status }, observed: decision.deployment ?? observed };
}

describe('decide', () => {
  describe('when no worker Deployment exists', () => {
    it('creates one owned by the job, sized by the queue, and reports it in status and an event', () => {
      const job = aJob({ generation: 3 });
      const d = decide(job, undefined, depth(12, 7), T0);
      expect(d.deployment?.spec?.replicas).to.equal(3);
      expect(d.deployment?.metadata?.ownerReferences).to.deep.equal([
        {
          apiVersion: 'imports.edu-platform.io/v1alpha1',
          kind: 'DocxImportJob',
          name: 'parse',
          uid: 'uid-1',
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      expect(d.status).to.include({
        observedGeneration: 3,
        desiredWorkers: 3,
        readyWorkers: 0,
        workerDeployment: 'parse-workers',
        lastScaleTime: '2025-03-01T10:00:00Z',
      });
      expect(d.status.queue).to.deep.equal({ totalPending: 12, active: 0, waiting: 12, oldestWaitingSeconds: 7 });
      expect(conditionOf(d.status, 'Ready')).to.equal('True/Reconciled');
      expect(conditionOf(d.status, 'QueueDepthAvailable')).to.equal('True/LagRead');
      expect(conditionOf(d.status, 'WorkersAvailable')).to.equal('False/WorkersNotReady');
      expect(d.status.conditions?.every((c) => c.observedGeneration === 3)).to.equal(true);
      expect(d.events).to.deep.equal([
        {
          type: 'Normal',
          reason: 'WorkersCreated',
          message: 'Created worker Deployment parse-workers with 3 replicas: 12 jobs pending, 5 per worker',
        },
      ]);
    });

    it('creates it at minWorkers when the queue cannot be read', () => {
      const d = decide(aJob({ scaling: { minWorkers: 2 } }), undefined, failedReading, T0);
      expect(d.deployment?.spec?.replicas).to.equal(2);
      expect(conditionOf(d.status, 'QueueDepthAvailable')).to.equal('False/KafkaUnavailable');
    });
  });

  describe('scaling up', () => {
    it('goes straight to the target in one step and clears a pending scale-down', () => {
      const job = aJob({
        status: { scaleDownPendingSince: '2025-03-01T09:59:00Z', lastScaleTime: '2025-03-01T09:00:00Z' },
      });
      const d = decide(job, anOwnedDeployment(job, 2), depth(40), T0);
      expect(d.deployment?.spec?.replicas).to.equal(8);
      expect(d.status.lastScaleTime).to.equal('2025-03-01T10:00:00Z');
      expect(d.status).not.to.have.property('scaleDownPendingSince');
      expect(d.events).to.deep.equal([
        {
          type: 'Normal',
          reason: 'ScaledUp',
          message: 'Scaled parse-workers from 2 to 8 replicas: 40 jobs pending, 5 per worker',
        },
      ]);
    });

    it('stops at maxWorkers and says so in ScalingLimited', () => {
      const job = aJob({ scaling: { maxWorkers: 4 } });
      const d = decide(job, anOwnedDeployment(job, 1), depth(1000), T0);
      expect(d.deployment?.spec?.replicas).to.equal(4);
      expect(conditionOf(d.status, 'ScalingLimited')).to.equal('True/MaxWorkersReached');
    });

    it('rounds a partial worker up: 6 jobs at 5 per worker need 2 workers', () => {
      const job = aJob();
      expect(decide(job, anOwnedDeployment(job, 1), depth(6), T0).deployment?.spec?.replicas).to.equal(2);
    });
  });

  describe('the work topic’s partitions', () => {
    const messageOf = (status: { conditions?: unknown }, type: string) =>
      findCondition(status.conditions as never, type)?.message;

    it('stops at the partition count when maxWorkers exceeds it, and says so in ScalingLimited', () => {
      const job = aJob({ scaling: { maxWorkers: 12 } });
      const d = decide(job, anOwnedDeployment(job, 1), depth(1000, 0, 6), T0);
      expect(d.deployment?.spec?.replicas).to.equal(6);
      expect(d.status.desiredWorkers).to.equal(6);
      expect(d.status.queue).to.deep.include({ partitions: 6 });
      expect(conditionOf(d.status, 'ScalingLimited')).to.equal('True/PartitionLimit');
      expect(messageOf(d.status, 'ScalingLimited')).to.equal(
        'The queue asks for 200 workers; maxWorkers 12 exceeds the 6 partitions of docx-import.jobs.v1; scaling stops at 6',
      );
    });

    it('reports PartitionLimit even while the queue asks for fewer workers than the partitions', () => {
      const job = aJob({ scaling: { maxWorkers: 12 } });
      const d = decide(job, anOwnedDeployment(job, 1), depth(10, 0, 6), T0);
      expect(d.deployment?.spec?.replicas).to.equal(2);
      expect(conditionOf(d.status, 'ScalingLimited')).to.equal('True/PartitionLimit');
      expect(messageOf(d.status, 'ScalingLimited')).to.equal(
        'maxWorkers 12 exceeds the 6 partitions of docx-import.jobs.v1; scaling stops at 6',
      );
    });

    it('creates a new Deployment at no more than the partitions, even when minWorkers is above them', () => {
      const job = aJob({ scaling: { minWorkers: 8, maxWorkers: 12 } });
      const d = decide(job, undefined, depth(0, 0, 3), T0);
      expect(d.deployment?.spec?.replicas).to.equal(3);
      expect(conditionOf(d.status, 'ScalingLimited')).to.equal('True/PartitionLimit');
    });

    it('keeps maxWorkers as the bound when the topic has at least as many partitions', () => {
      const job = aJob({ scaling: { maxWorkers: 4 } });
      const d = decide(job, anOwnedDeployment(job, 1), depth(1000, 0, 4), T0);
      expect(d.deployment?.spec?.replicas).to.equal(4);
      expect(conditionOf(d.status, 'ScalingLimited')).to.equal('True/MaxWorkersReached');
    });

    it('steps a fleet above the partitions down after the delay, never up', () => {
      const job = aJob({ scaling: { maxWorkers: 10, scaleDownStep: 10 } });
      const observed = anOwnedDeployment(job, 9);
      const held = decide(job, observed, depth(1000, 0, 4), T0);
      expect(held.deployment).to.equal(null);
      expect(held.status.desiredWorkers).to.equal(9);
      const next = applied(job, observed, held);
      const later = decide(next.job, next.observed, depth(1000, 0, 4), plus(61));
      expect(later.deployment?.spec?.replicas).to.equal(4);
    });

    it('caps nothing when the reading carries no partition count', () => {
      const job = aJob({ scaling: { maxWorkers: 12 } });
      const d = decide(job, anOwnedDeployment(job, 1), depth(1000), T0);
      expect(d.deployment?.spec?.replicas).to.equal(12);
      expect(conditionOf(d.status, 'ScalingLimited')).to.equal('True/MaxWorkersReached');
    });
  });

  describe('scaling down', () => {
    it('holds the replicas and starts the delay when fewer workers would do', () => {
      const job = aJob({ status: { lastScaleTime: '2025-03-01T09:00:00Z' } });
      const d = decide(job, anOwnedDeployment(job, 5), depth(0), T0);
      expect(d.deployment).to.equal(null);
      expect(d.status).to.include({
        desiredWorkers: 5,
        scaleDownPendingSince: '2025-03-01T10:00:00Z',
        lastScaleTime: '2025-03-01T09:00:00Z',
      });
      expect(d.events).to.deep.equal([]);
    });

    it('removes one step once the delay has passed, then waits the delay again before the next step', () => {
      let job = aJob({ status: { lastScaleTime: '2025-03-01T09:00:00Z' } });
      let observed: V1Deployment | undefined = anOwnedDeployment(job, 5);
      const replicasAt = (s: number): number => {
        const d = decide(job, observed, depth(0), plus(s));
        ({ job, observed } = applied(job, observed, d));
        return observed?.spec?.replicas ?? -1;
      };
      expect([0, 30, 60, 61, 119, 120, 180, 240, 300, 360].map(replicasAt)).to.deep.equal([
        5, 5, 4, 4, 4, 3, 2, 1, 1, 1,
      ]);
      expect(job.status?.lastScaleTime).to.equal('2025-03-01T10:04:00Z');
      expect(job.status).not.to.have.property('scaleDownPendingSince');
    });

    it('removes at most scaleDownStep workers, never going below the target', () => {
      const job = aJob({ scaling: { scaleDownStep: 3, scaleDownDelaySeconds: 0 } });
      const observed = anOwnedDeployment(job, 10);
      expect(decide(job, observed, depth(0), T0).deployment?.spec?.replicas).to.equal(7);
      expect(decide(job, observed, depth(40), T0).deployment?.spec?.replicas).to.equal(8);
    });

    it('cancels the pending scale-down when the queue grows back within the delay', () => {
      const job = aJob({ status: { scaleDownPendingSince: '2025-03-01T09:59:30Z' } });
      const d = decide(job, anOwnedDeployment(job, 5), depth(25), T0);
      expect(d.deployment).to.equal(null);
      expect(d.status).not.to.have.property('scaleDownPendingSince');
      expect(d.events).to.deep.equal([]);
    });

    it('scales to zero on an empty queue when minWorkers is 0', () => {
      const job = aJob({ scaling: { minWorkers: 0, scaleDownDelaySeconds: 0 } });
      expect(decide(job, anOwnedDeployment(job, 1), depth(0), T0).deployment?.spec?.replicas).to.equal(0);
    });
  });

  describe('when the queue depth cannot be read', () => {
    it('keeps the current replicas, even with minWorkers 0, and keeps the last known queue', () => {
      const queue = { totalPending: 30, active: 0, waiting: 30, oldestWaitingSeconds: 12 };
      const job = aJob({ scaling: { minWorkers: 0, scaleDownDelaySeconds: 0 }, status: { queue, desiredWorkers: 6 } });
      const d = decide(job, anOwnedDeployment(job, 6), failedReading, T0);
      expect(d.deployment).to.equal(null);
      expect(d.status.desiredWorkers).to.equal(6);
      expect(d.status.queue).to.deep.equal(queue);
      expect(conditionOf(d.status, 'QueueDepthAvailable')).to.equal('False/KafkaUnavailable');
      expect(conditionOf(d.status, 'Ready')).to.equal('False/QueueDepthUnavailable');
      expect(findCondition(d.status.conditions, 'QueueDepthAvailable')?.message).to.equal(
        'Connection refused 127.0.0.1:1',
      );
    });

    it('warns once when the outage starts, not on every reconcile while it lasts', () => {
      const job = aJob();
      const observed = anOwnedDeployment(job, 2);
      const first = decide(job, observed, failedReading, T0);
      const second = decide({ ...job, status: first.status }, observed, failedReading, plus(10));
      expect(first.events.map((e) => `${e.type}/${e.reason}`)).to.deep.equal(['Warning/QueueDepthUnavailable']);
      expect(second.events).to.deep.equal([]);
    });

    it('recovers the conditions on the next good reading', () => {
      const job = aJob();
      const observed = anOwnedDeployment(job, 2);
      const down = decide(job, observed, failedReading, T0);
      const up = decide({ ...job, status: down.status }, observed, depth(10), plus(10));
      expect(conditionOf(up.status, 'QueueDepthAvailable')).to.equal('True/LagRead');
      expect(findCondition(up.status.conditions, 'QueueDepthAvailable')?.lastTransitionTime).to.equal(
        '2025-03-01T10:00:10Z',
      );
    });
  });

  describe('status', () => {
    it('estimates active jobs from ready workers times concurrency', () => {
      const job = aJob({ concurrency: 2 });
      const d = decide(job, anOwnedDeployment(job, 2, 3), depth(10), T0);
      expect(d.status.queue).to.deep.include({ active: 6, waiting: 4 });
      expect(d.status.readyWorkers).to.equal(3);
    });

    it('marks WorkersAvailable True once the ready workers reach the desired count', () => {
      const job = aJob();
      expect(conditionOf(decide(job, anOwnedDeployment(job, 2, 2), depth(10), T0).status, 'WorkersAvailable')).to.equal(
        'True/WorkersReady',
      );
    });

    it('is a fixed point: a second decision over an unchanged world writes nothing and says nothing', () => {
      const job = aJob({ generation: 2 });
      const first = decide(job, undefined, depth(12, 3), T0);
      const second = decide({ ...job, status: first.status }, first.deployment ?? undefined, depth(12, 3), plus(5));
      expect(second.deployment).to.equal(null);
      expect(second.status).to.deep.equal(first.status);
      expect(second.events).to.deep.equal([]);
    });

    it('records the new generation after a spec change', () => {
      const job = aJob({ generation: 1 });
      const first = decide(job, undefined, depth(0), T0);
      const second = decide(
        { ...aJob({ generation: 2 }), status: first.status },
        first.deployment ?? undefined,
        depth(0),
        plus(1),
      );
      expect(second.status.observedGeneration).to.equal(2);
      expect(second.status.conditions?.map((c) => c.observedGeneration)).to.deep.equal([2, 2, 2, 2]);
    });
  });

  describe('the Deployment it owns', () => {
    it('reapplies when the pod template changed even if the replicas did not', () => {
      const job = aJob();
      const stale = anOwnedDeployment(job, 2);
      stale.metadata = { ...stale.metadata, annotations: { [ANNOTATION_TEMPLATE_HASH]: 'old' } };
      expect(
        decide(job, stale, depth(10), T0).deployment?.metadata?.annotations?.[ANNOTATION_TEMPLATE_HASH],
      ).to.not.equal('old');
    });

    it('scales a Deployment that someone shrank back up to what the queue needs', () => {
      const job = aJob({ status: { desiredWorkers: 2 } });
      expect(decide(job, anOwnedDeployment(job, 1), depth(10), T0).deployment?.spec?.replicas).to.equal(2);
    });

    it('leaves a same-named Deployment it does not control alone and warns once', () => {
      const job = aJob();
      const foreign: V1Deployment = {
        metadata: { name: 'parse-workers', namespace: 'ns1' },
        spec: { replicas: 1, selector: {}, template: {} },
      };
      const first = decide(job, foreign, depth(10), T0);
      const second = decide({ ...job, status: first.status }, foreign, depth(10), plus(1));
      expect(first.deployment).to.equal(null);
      expect(conditionOf(first.status, 'Ready')).to.equal('False/DeploymentConflict');
      expect(first.events.map((e) => e.reason)).to.deep.equal(['DeploymentConflict']);
      expect(second.events).to.deep.equal([]);
    });
  });

  it('does not mutate its inputs', () => {
    const job = aJob({ status: { lastScaleTime: '2025-03-01T09:00:00Z', conditions: [] } });
    const observed = anOwnedDeployment(job, 5);
    const before = structuredClone({ job, observed });
    decide(job, observed, depth(100), T0);
    decide(job, observed, depth(0), T0);
    expect({ job, observed }).to.deep.equal(before);
  });
});

describe('withApplyFailure', () => {
  it('keeps the decided status and turns Ready False with DeploymentApplyFailed', () => {
    const d = decide(aJob(), undefined, depth(3), T0);
    const failed = withApplyFailure(d.status, 1, 'admission webhook denied', plus(1));
    expect(failed.desiredWorkers).to.equal(d.status.desiredWorkers);
    expect(conditionOf(failed, 'Ready')).to.equal('False/DeploymentApplyFailed');
    expect(findCondition(failed.conditions, 'Ready')?.message).to.equal('admission webhook denied');
  });
});
