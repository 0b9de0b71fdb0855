from sitegen.cli import main

raise SystemExit(main())
