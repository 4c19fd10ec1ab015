from checker.cli import main

if __name__ == "__main__":  # guarded: spawned workers re-import the main module
    raise SystemExit(main())
