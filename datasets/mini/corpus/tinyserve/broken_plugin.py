"""A plugin that was half-migrated and no longer parses. The chunker must fall back to
plain text windows for it instead of failing the whole index."""

def register_plugin(app:
    # The closing parenthesis above was lost in a merge.
    app.use(lambda handler: handler
    return {"name": "broken", "version": (0, 1

class PluginRegistry(
    plugins = [
        "auth" "cache",
    }

    def load_all(self) -> :
        for name in self.plugins
            yield importlib.import_module(f"tinyserve_plugins.{name}"
