import { screenOfRef } from '../../shared/composed-screens';
import type { ContentDocument } from '../../shared/config/content';
import type { FlowsDocument } from '../../shared/config/flows';
import type { DocumentIssue } from '../../shared/config/parse-document';

/**
 * Each screen a flow names that is neither in code nor composed in the content
 * (`content.composed`), at its path in the flows (`flows.flows.spring.0`): a visitor sent there
 * would find a 404. It also refuses taking out or renaming a composed screen a flow still walks.
 */
export function composedRefIssues(flows: FlowsDocument, content: ContentDocument): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  for (const [name, screens] of Object.entries(flows.flows)) {
    screens.forEach((ref, index) => {
      if (screenOfRef(content, ref) !== null) return;
      issues.push({
        path: `flows.flows.${name}.${index}`,
        message: `names screen "${ref}", which is no screen in code and not composed in the content: compose it under content.composed, or choose another screen`,
      });
    });
  }
  return issues;
}
