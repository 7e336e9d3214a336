// The DOCX a teacher uploads in the exam flow: the bench's THPT-shaped exam (Phần I single choice
// with red answers, pictures and equations; Phần II true/false by (Đúng)/(Sai) suffixes; Phần III
// short numeric answers on answer lines), so the flow exercises the parser as a real paper would.
import { makeExam } from '../../bench/docx-parse/make-exam.js';

export interface ExamDocx {
  bytes: Uint8Array;
  fileName: string;
  /** How many questions the file holds (what the import job must find). */
  questions: number;
}

/** An exam of `questions` questions (6: four single choice, one true/false group, one short answer). */
export async function sampleExamDocx(questions = 6): Promise<ExamDocx> {
  if (!Number.isInteger(questions) || questions < 3) throw new Error('sampleExamDocx: at least 3 questions');
  return { bytes: await makeExam(questions), fileName: `de-thi-${questions}-cau.docx`, questions };
}
