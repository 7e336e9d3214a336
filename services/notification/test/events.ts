// Weak-topic events as analytics publishes them, checked against the catalogue's JSON Schema.
import { randomUUID } from 'node:crypto';
import { EVENT_TYPES, TOPICS } from '../../../kafka/topics.js';
import { buildEvent, type BusMessage, type PlatformEvent } from '../../kit/src/bus/index.js';
import { expectValidEvent } from '../../kit/test/support/event-schemas.js';

export function weakTopicEvent(studentId: string, attemptId = randomUUID()): PlatformEvent {
  const event = buildEvent(
    {
      source: 'analytics',
      type: EVENT_TYPES.analyticsWeakTopicDetected,
      subject: studentId,
      data: {
        studentId,
        organizationId: 'org-1',
        attemptId,
        classroomId: null,
        exam: { id: 'exam-1', title: 'Kiểm tra giữa kỳ' },
        topics: [
          { topic: 'Hàm số', topicId: 'tp-1', wrongCount: 2, attemptCount: 3, accuracy: 1 / 3, shouldAlert: true },
        ],
      },
    },
    new Date(),
  );
  expectValidEvent(event, TOPICS.analyticsWeakTopicDetected);
  return event;
}

export function message(event: PlatformEvent): BusMessage {
  return { key: event.subject, value: JSON.stringify(event) };
}
