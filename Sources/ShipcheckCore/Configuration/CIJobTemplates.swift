/// CI jobs `shipcheck init` writes when asked (`--github-actions`, `--gitlab-ci`).
package enum CIJobTemplates {
    package static let githubActionsPath = ".github/workflows/shipcheck.yml"
    package static let gitlabCIPath = ".gitlab/shipcheck.yml"

    package static let githubActions = """
        # Release gate: shipcheck audits sources, conflict markers, saved queries, build
        # settings and release binaries. Findings show as annotations and in code scanning.
        # Its result cache (~/.cache/shipcheck; it only saves work) is carried between runs,
        # saved even when the gate fails.
        name: shipcheck
        on:
          push:
          pull_request:
        permissions:
          contents: read
          security-events: write
        jobs:
          audit:
            runs-on: ubuntu-latest
            container: swift:6.1
            steps:
              - uses: actions/checkout@v4
              - name: Install shipcheck
                run: |
                  apt-get update && apt-get install -y libelf-dev pkg-config git make
                  git clone --depth 1 https://github.com/shipcheck/shipcheck /tmp/shipcheck
                  make -C /tmp/shipcheck install
              - name: Restore shipcheck's result cache
                id: cache
                uses: actions/cache/restore@v5
                with:
                  path: ~/.cache/shipcheck
                  key: shipcheck-results-${{ runner.os }}-${{ runner.arch }}-${{ github.sha }}
                  restore-keys: shipcheck-results-${{ runner.os }}-${{ runner.arch }}-
              - name: Audit
                run: shipcheck audit --format github .
              - name: SARIF for code scanning
                if: always()
                run: shipcheck audit --format sarif --output shipcheck.sarif . || true
              - uses: actions/cache/save@v5
                if: always() && steps.cache.outcome == 'success' && steps.cache.outputs.cache-hit != 'true'
                with:
                  path: ~/.cache/shipcheck
                  key: ${{ steps.cache.outputs.cache-primary-key }}
              - uses: github/codeql-action/upload-sarif@v3
                if: always()
                with:
                  sarif_file: shipcheck.sarif

        """

    package static let gitlabCI = """
        # Release gate: include this file from .gitlab-ci.yml
        #   include: { local: .gitlab/shipcheck.yml }
        # shipcheck's result cache (it only saves work) goes in the project folder, the only
        # place GitLab's cache keeps; shipcheck leaves it out of the scan.
        shipcheck:
          image: swift:6.1
          stage: test
          variables:
            XDG_CACHE_HOME: "$CI_PROJECT_DIR/.cache"
          cache:
            key: shipcheck-results-$CI_COMMIT_REF_SLUG
            fallback_keys:
              - shipcheck-results-$CI_DEFAULT_BRANCH
            paths:
              - .cache/shipcheck
            when: always
          before_script:
            - apt-get update && apt-get install -y libelf-dev pkg-config git make
            - git clone --depth 1 https://github.com/shipcheck/shipcheck /tmp/shipcheck
            - make -C /tmp/shipcheck install
          script:
            - shipcheck audit --format junit --output shipcheck-junit.xml . || status=$?
            - shipcheck audit --format gitlab --output gl-code-quality-report.json . || true
            - exit ${status:-0}
          artifacts:
            when: always
            reports:
              junit: shipcheck-junit.xml
              codequality: gl-code-quality-report.json

        """

    /// The line `init` adds to `.gitignore`: per-developer run state of saved queries.
    package static let stateIgnoreLine = ".shipcheck/state/"
}
