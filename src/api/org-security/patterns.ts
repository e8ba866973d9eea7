/**
 * GitHub's provider (partner) secret scanning patterns that support push protection, as the
 * pattern configuration lists them: token_type (the pattern's id), slug, display_name, and the
 * default push protection setting. Gitstead scans no secrets, so the alert figures of the
 * configuration are 0; the settings chosen here are kept per organization.
 */
export interface ProviderPattern {
	token_type: string;
	slug: string;
	display_name: string;
	default_setting: 'enabled' | 'disabled';
}

const pattern = (token_type: string, display_name: string, default_setting: 'enabled' | 'disabled' = 'enabled'): ProviderPattern => ({
	token_type,
	slug: token_type.toLowerCase(),
	display_name,
	default_setting,
});

/** The catalogue, by display name. */
export const PROVIDER_PATTERNS: readonly ProviderPattern[] = [
	pattern('ADAFRUIT_IO_KEY', 'Adafruit IO Key'),
	pattern('ALIBABA_CLOUD_ACCESS_KEY_ID', 'Alibaba Cloud AccessKey ID'),
	pattern('ANTHROPIC_API_KEY', 'Anthropic API Key'),
	pattern('AWS_ACCESS_KEY_ID', 'AWS Access Key ID'),
	pattern('AWS_SECRET_ACCESS_KEY', 'AWS Secret Access Key'),
	pattern('AZURE_STORAGE_ACCOUNT_KEY', 'Azure Storage Account Key'),
	pattern('DATADOG_API_KEY', 'Datadog API Key', 'disabled'),
	pattern('GITHUB_APP_INSTALLATION_ACCESS_TOKEN', 'GitHub App Installation Access Token'),
	pattern('GITHUB_OAUTH_ACCESS_TOKEN', 'GitHub OAuth Access Token'),
	pattern('GITHUB_PERSONAL_ACCESS_TOKEN', 'GitHub Personal Access Token'),
	pattern('GITHUB_REFRESH_TOKEN', 'GitHub Refresh Token'),
	pattern('GITLAB_ACCESS_TOKEN', 'GitLab Access Token'),
	pattern('GOOGLE_API_KEY', 'Google API Key'),
	pattern('NPM_ACCESS_TOKEN', 'npm Access Token'),
	pattern('OPENAI_API_KEY', 'OpenAI API Key'),
	pattern('PYPI_API_TOKEN', 'PyPI API Token'),
	pattern('SLACK_API_TOKEN', 'Slack API Token'),
	pattern('SLACK_INCOMING_WEBHOOK_URL', 'Slack Incoming Webhook URL', 'disabled'),
	pattern('STRIPE_API_KEY', 'Stripe API Key'),
	pattern('TWILIO_ACCOUNT_STRING_IDENTIFIER', 'Twilio Account String Identifier', 'disabled'),
];
