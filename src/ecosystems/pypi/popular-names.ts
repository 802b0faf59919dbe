/**
 * Widely used PyPI projects, the typosquat comparison set for PyPI targets (npm targets use
 * the npm-high-impact lists, see typosquat.ts).
 *
 * Hand-curated for nerq: about 250 project names that are among the most widely installed on
 * PyPI (the AWS and Google client libraries, the scientific stack, web frameworks, packaging
 * and test tools, and the dependencies they all pull in). No ranking is claimed and the order
 * carries no meaning beyond breaking ties between two equally close names; there is no
 * maintained offline PyPI popularity list on npm to ship instead. Names are PEP 503
 * normalised (lower case, `-` between words), as the typosquat check compares them.
 */
export const PYPI_POPULAR: readonly string[] = [
  'boto3', 'botocore', 'urllib3', 'requests', 'setuptools', 'certifi', 'idna', 'charset-normalizer',
  'typing-extensions', 'python-dateutil', 's3transfer', 'packaging', 'six', 'aiobotocore', 'numpy', 'pyyaml',
  'grpcio-status', 'pip', 'fsspec', 's3fs', 'cryptography', 'cffi', 'pycparser', 'attrs', 'jmespath',
  'pydantic', 'pydantic-core', 'annotated-types', 'protobuf', 'rsa', 'pyasn1', 'google-auth', 'cachetools',
  'googleapis-common-protos', 'google-api-core', 'platformdirs', 'importlib-metadata', 'zipp', 'wheel',
  'markupsafe', 'jinja2', 'click', 'filelock', 'pandas', 'pytz', 'tzdata', 'wrapt', 'colorama', 'pyjwt',
  'oauthlib', 'requests-oauthlib', 'pluggy', 'pytest', 'tomli', 'exceptiongroup', 'virtualenv', 'distlib',
  'aiohttp', 'yarl', 'multidict', 'async-timeout', 'sqlalchemy', 'greenlet', 'psutil', 'pyparsing',
  'docutils', 'pygments', 'rich', 'markdown-it-py', 'soupsieve', 'beautifulsoup4', 'lxml', 'pillow', 'scipy',
  'matplotlib', 'fonttools', 'tqdm', 'werkzeug', 'flask', 'itsdangerous', 'blinker', 'decorator',
  'requests-toolbelt', 'tomlkit', 'more-itertools', 'anyio', 'sniffio', 'h11', 'httpcore', 'httpx',
  'starlette', 'fastapi', 'uvicorn', 'websockets', 'grpcio', 'grpcio-tools', 'google-cloud-storage',
  'google-cloud-core', 'google-cloud-bigquery', 'google-auth-oauthlib', 'azure-core', 'azure-storage-blob',
  'azure-identity', 'msal', 'openpyxl', 'scikit-learn', 'joblib', 'networkx', 'sympy', 'torch',
  'torchvision', 'tensorflow', 'keras', 'transformers', 'tokenizers', 'huggingface-hub', 'safetensors',
  'regex', 'pyarrow', 'redis', 'psycopg2', 'psycopg2-binary', 'pymysql', 'awscli', 'paramiko', 'bcrypt',
  'pynacl', 'pyopenssl', 'chardet', 'setuptools-scm', 'poetry-core', 'hatchling', 'flit-core', 'build',
  'cython', 'jsonschema', 'deprecated', 'docker', 'kubernetes', 'websocket-client', 'pyzmq', 'tornado',
  'traitlets', 'ipython', 'jedi', 'parso', 'prompt-toolkit', 'wcwidth', 'ipykernel', 'jupyter-core',
  'jupyter-client', 'nbformat', 'nbconvert', 'notebook', 'jupyterlab', 'nest-asyncio', 'tabulate',
  'sentry-sdk', 'structlog', 'loguru', 'toml', 'python-dotenv', 'marshmallow', 'mock', 'coverage',
  'pytest-cov', 'pytest-mock', 'pytest-xdist', 'pytest-asyncio', 'black', 'mypy', 'mypy-extensions',
  'pathspec', 'flake8', 'pycodestyle', 'pyflakes', 'pylint', 'astroid', 'isort', 'ruff', 'pre-commit', 'tox',
  'types-requests', 'types-pyyaml', 'gunicorn', 'django', 'djangorestframework', 'celery', 'kombu',
  'alembic', 'mako', 'arrow', 'pendulum', 'dill', 'cloudpickle', 'msgpack', 'orjson', 'ujson', 'xmltodict',
  'shapely', 'opencv-python', 'scikit-image', 'seaborn', 'plotly', 'statsmodels', 'xgboost', 'lightgbm',
  'nltk', 'openai', 'langchain', 'tiktoken', 'selenium', 'playwright', 'scrapy', 'twisted', 'ruamel-yaml',
  'sortedcontainers', 'tenacity', 'backoff', 'distro', 'pywin32', 'pycryptodome', 'pycryptodomex', 'keyring',
  'twine', 'bleach', 'html5lib', 'defusedxml', 'gitpython', 'prometheus-client', 'opentelemetry-api',
  'opentelemetry-sdk', 'snowflake-connector-python', 'pyspark', 'dnspython', 'email-validator',
  'python-multipart', 'argcomplete', 'typer', 'pyodbc', 'asgiref', 'pyserial', 'numba', 'h5py', 'xlsxwriter',
  'markdown', 'python-slugify', 'babel', 'hypothesis',
];
