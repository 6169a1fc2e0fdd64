import { useParams } from 'react-router';
import { PageContainer } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';

/**
 * /chat and /chat/:roomidCreate (spec §2).
 * TODO(chat feature): peer name header, messages, composer, image upload, STOMP connection.
 */
export default function ChatPage() {
  const { roomidCreate } = useParams();
  useDocumentTitle('Chat');
  return (
    <PageContainer width="default">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Chat</h1>
      <p className="mt-2 text-slate-600">
        {roomidCreate ? `Conversation ${roomidCreate}` : 'New conversation'}
      </p>
    </PageContainer>
  );
}
